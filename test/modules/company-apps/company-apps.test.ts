import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

const storedFeatures = async (tenant: TenantFixture = t.tenant) =>
  (await t.db.db
    .selectFrom('companies')
    .select(['features', 'updated_at'])
    .where('id', '=', tenant.companyId)
    .executeTakeFirstOrThrow()) as { features: Record<string, boolean>; updated_at: string };

async function appsOf(tenant: TenantFixture = t.tenant): Promise<Record<string, any>> {
  const res = await t.request('GET', '/company/apps', { key: 'read', tenant });
  assert.equal(res.status, 200, res.text);
  return Object.fromEntries(res.body.data.map((app: { key: string }) => [app.key, app]));
}

const activate = (id: number, key = 'admin', tenant?: TenantFixture, headers?: Record<string, string>) =>
  t.request('POST', `/company/apps/${id}/activate`, { key, tenant, headers });

test('a new company lists the catalogue: active from its features, included per plan', async () => {
  const res = await t.request('GET', '/company/apps', { key: 'read' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.meta, { total: 4, limit: 50, offset: 0, has_more: false });
  const apps = res.body.data;
  assert.deepEqual(
    apps.map((a: { key: string }) => a.key),
    ['billing', 'analytics', 'drive', 'sso'],
  );
  assert.deepEqual(Object.keys(apps[0]).sort(), ['active', 'description', 'id', 'included_in_plan', 'key', 'name']);
  const byKey = await appsOf();
  // The company defaults: billing and analytics on, drive off; sso is not in the pro plan.
  assert.deepEqual(
    Object.values(byKey).map((a) => [a.key, a.active, a.included_in_plan]),
    [
      ['billing', true, true],
      ['analytics', true, true],
      ['drive', false, true],
      ['sso', false, false],
    ],
  );
  assert.equal(byKey.drive.name, 'Document drive');
  const paged = await t.request('GET', '/company/apps?limit=2&offset=2&sort=-id');
  assert.deepEqual(
    paged.body.data.map((a: { key: string }) => a.key),
    ['analytics', 'billing'],
  );
  assert.equal(paged.body.meta.has_more, false);
});

test('activating drive flips the feature in the same write, and the next request sees it', async () => {
  const tenant = await t.newTenant({ name: 'Drive Co' });
  const { drive } = await appsOf(tenant);
  const before = await storedFeatures(tenant);
  const res = await activate(drive.id, 'admin', tenant);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data, { ...drive, active: true });
  const after = await storedFeatures(tenant);
  assert.deepEqual(after.features, { ...before.features, drive: true });
  assert.ok(after.updated_at > before.updated_at);
  assert.equal((await appsOf(tenant)).drive.active, true);
  const audit = await t.db.db
    .selectFrom('activities')
    .select(['entity', 'record_id'])
    .where('company_id', '=', tenant.companyId)
    .where('path', 'like', '%/company/apps/%')
    .execute();
  assert.deepEqual(audit, [{ entity: 'company_app', record_id: drive.id }]);

  // Activating an active app answers 200 and writes nothing.
  const again = await activate(drive.id, 'admin', tenant);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.body.data, res.body.data);
  assert.equal((await storedFeatures(tenant)).updated_at, after.updated_at);
});

test("the cached key's company features are fresh on the request after an activation", async () => {
  const tenant = await t.newTenant({ name: 'Billing Co' });
  const off = await t.request('PATCH', '/company/billing-settings', { tenant, body: { billing_active: false } });
  assert.equal(off.status, 200, off.text);
  // Warm the key cache with billing off: the gated report refuses.
  const refused = await t.request('GET', '/missed-billing', { tenant });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.error.details.reason, 'BILLING_NOT_ACTIVE');
  const { billing } = await appsOf(tenant);
  assert.equal(billing.active, false);
  const on = await activate(billing.id, 'admin', tenant);
  assert.equal(on.status, 200, on.text);
  assert.equal(on.body.data.active, true);
  const open = await t.request('GET', '/missed-billing', { tenant });
  assert.equal(open.status, 200, open.text);
});

test('an app outside the plan answers 403 PLAN_UPGRADE_REQUIRED and writes nothing', async () => {
  const { sso } = await appsOf();
  const before = await storedFeatures();
  const res = await activate(sso.id);
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.error.code, 'PLAN_UPGRADE_REQUIRED');
  assert.deepEqual(res.body.error.details, { app: 'sso', plan: 'pro', required_plans: ['enterprise'] });
  assert.deepEqual(await storedFeatures(), before);
});

test('activation needs the admin tier, a known id of this company, and honours Idempotency-Key', async () => {
  const other = await t.newTenant({ name: 'Other apps' });
  const { analytics } = await appsOf();
  const theirs = (await appsOf(other)).drive;
  for (const key of ['read', 'write', 'personal', 'personalAdmin']) {
    const res = await activate(analytics.id, key);
    assert.equal(res.status, 403, `${key}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  }
  const foreign = await activate(theirs.id);
  assert.equal(foreign.status, 404, foreign.text);
  assert.equal(foreign.body.error.code, 'NOT_FOUND');
  assert.equal((await storedFeatures(other)).features.drive, false);
  for (const bad of ['0', 'abc', '99999999999', '2147483647']) {
    const res = await t.request('POST', `/company/apps/${bad}/activate`);
    assert.ok([400, 404].includes(res.status), `${bad}: ${res.status}`);
  }
  assert.equal((await t.request('GET', '/company/apps?active=true')).body.error.code, 'UNKNOWN_FILTER_FIELD');
  assert.equal((await t.request('GET', '/company/apps?cursor=abc')).body.error.code, 'INVALID_CURSOR');

  const headers = { 'idempotency-key': 'activate-analytics' };
  const first = await activate(analytics.id, 'admin', undefined, headers);
  assert.equal(first.status, 200, first.text);
  const replay = await activate(analytics.id, 'admin', undefined, headers);
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(replay.body, first.body);
});

test('a company created after the migration gets the apps from the seeder, with its own ids', async () => {
  const tenant = await t.newTenant({ name: 'Seeded Co' });
  const rows = await t.db.db
    .selectFrom('company_apps')
    .select(['id', 'key'])
    .where('company_id', '=', tenant.companyId)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    rows.map((r) => r.key),
    ['billing', 'analytics', 'drive', 'sso'],
  );
  const listed = await appsOf(tenant);
  assert.deepEqual(
    rows.map((r) => r.id),
    Object.values(listed).map((a) => a.id),
  );
});

test("migration 0096's backfill gives a company that predates it the catalogue's rows, once", async () => {
  const tenant = await t.newTenant({ name: 'Older Co' });
  await t.db.db.deleteFrom('company_apps').where('company_id', '=', tenant.companyId).execute();
  const file = await readFile(
    new URL('../../../src/db/migrations/0096_client_workflow_apps.sql', import.meta.url),
    'utf8',
  );
  const backfill = file.slice(file.indexOf('INSERT INTO company_apps'));
  // Run twice: the second run finds every row in place and adds none.
  for (let run = 0; run < 2; run++) await sql.raw(backfill).execute(t.db.db);
  const rows = await t.db.db
    .selectFrom('company_apps')
    .select('key')
    .where('company_id', '=', tenant.companyId)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    rows.map((r) => r.key),
    ['billing', 'analytics', 'drive', 'sso'],
  );
  assert.deepEqual(Object.keys(await appsOf(tenant)), ['billing', 'analytics', 'drive', 'sso']);
});
