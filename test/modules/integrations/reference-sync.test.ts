import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { runJobsOnce } from '../../../src/modules/jobs/index.ts';
import { loadModules } from '../../../src/modules/index.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

async function waitForJob(jobId: number, tenant: TenantFixture = t.tenant) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await t.request('GET', `/jobs/${jobId}`, { tenant });
    assert.equal(res.status, 200, res.text);
    if (res.body.data.status === 'finished' || res.body.data.status === 'failed') return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}

async function storedJob(id: number) {
  return t.db.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const ids = async (table: string, where = sql`true`, tenant = t.tenant) =>
  (
    await sql<{
      id: number;
    }>`select id from ${sql.table(table)} where company_id = ${tenant.companyId} and ${where} order by id`.execute(
      t.db.db,
    )
  ).rows.map((r) => r.id);

const sync = (
  body?: unknown,
  options: { key?: string; headers?: Record<string, string>; tenant?: TenantFixture } = {},
) => t.request('POST', '/integrations/reference-data/sync', { body, ...options });

test('POST queues a reference_data_sync job (202); the job records what it would send and GET /jobs shows it', async () => {
  const companyId = t.tenant.companyId;
  await t.db.db.insertInto('taxes').values({ company_id: companyId, name: 'VAT', rate: '0.22' }).execute();
  await t.db.db
    .insertInto('taxes')
    .values({ company_id: companyId, name: 'Old', rate: '0.2', status: 'inactive' })
    .execute();
  await t.db.db.insertInto('products').values({ company_id: companyId, name: 'Hours' }).execute();
  await t.db.db
    .insertInto('products')
    .values({ company_id: companyId, name: 'Gone', deleted_at: new Date().toISOString() })
    .execute();
  await t.db.db.insertInto('invoice_sellers').values({ company_id: companyId, name: 'Seller' }).execute();
  await t.db.db.insertInto('clients').values({ company_id: companyId, name: 'Acme' }).execute();
  await t.db.db.insertInto('clients').values({ company_id: companyId, name: 'Template', type: 'plan' }).execute();
  await t.db.db.insertInto('taxes').values({ company_id: other.companyId, name: 'Theirs', rate: '0.1' }).execute();

  const res = await sync();
  assert.equal(res.status, 202, res.text);
  const queued = res.body.data;
  assert.equal(queued.type, 'reference_data_sync');
  assert.equal(queued.status, 'queued');
  const job = await waitForJob(queued.id);
  assert.equal(job.status, 'finished', JSON.stringify(job));
  assert.equal(job.error, null);

  const expected = {
    taxes: await ids('taxes'),
    products: await ids('products', sql`deleted_at is null`),
    invoice_sellers: await ids('invoice_sellers'),
    clients: await ids('clients', sql`deleted_at is null and type <> 'plan'`),
  };
  assert.equal(expected.taxes.length, 2);
  const result = (await storedJob(queued.id)).result as Record<string, any>;
  assert.equal(result.accounting_system, null);
  assert.equal(result.delivered, false);
  assert.match(result.note, /No accounting system is connected/);
  assert.match(result.collected_at, /Z$/);
  assert.deepEqual(job.result, result, 'GET /jobs/{id} shows the summary the job stored');
  for (const [entity, list] of Object.entries(expected))
    assert.deepEqual(result.entities[entity], { count: list.length, ids: list, ids_truncated: false }, entity);
  const total = Object.values(expected).reduce((n, list) => n + list.length, 0);
  assert.equal(job.total_count, total);
  assert.equal(job.processed_count, total);
  assert.equal(job.failed_count, 0);
  const audit = await t.db.db
    .selectFrom('activities')
    .select(['entity', 'action', 'record_id'])
    .where('company_id', '=', companyId)
    .where('path', '=', '/api/v3/integrations/reference-data/sync')
    .execute();
  assert.deepEqual(audit, [{ entity: 'integration', action: 'sync', record_id: queued.id }]);
});

test('entities chooses what is collected (stored in catalogue order); bad bodies are 400', async () => {
  const res = await sync({ entities: ['clients', 'taxes'] });
  assert.equal(res.status, 202, res.text);
  await waitForJob(res.body.data.id);
  const job = await storedJob(res.body.data.id);
  assert.deepEqual(job.params, { entities: ['taxes', 'clients'] });
  assert.deepEqual(Object.keys((job.result as { entities: object }).entities), ['taxes', 'clients']);
  for (const body of [
    { entities: [] },
    { entities: ['taxes', 'taxes'] },
    { entities: ['contracts'] },
    { entities: 'taxes' },
    { entities: ['a\u0000'] },
    { extra: true },
    [],
  ]) {
    const bad = await sync(body);
    assert.equal(bad.status, 400, JSON.stringify(body));
    assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  }
});

test('the id lists are capped at 1000 per entity; the count stays complete', async () => {
  const tenant = await t.newTenant({ name: 'Big Co' });
  await sql`insert into clients (company_id, name) select ${tenant.companyId}, 'C' || g from generate_series(1, 1005) g`.execute(
    t.db.db,
  );
  const res = await sync({ entities: ['clients'] }, { tenant });
  await waitForJob(res.body.data.id, tenant);
  const summary = ((await storedJob(res.body.data.id)).result as { entities: Record<string, any> }).entities.clients;
  assert.equal(summary.count, 1005);
  assert.equal(summary.ids.length, 1000);
  assert.equal(summary.ids_truncated, true);
});

test('POST is idempotent with Idempotency-Key: the repeat answers the same job and queues no other', async () => {
  const headers = { 'idempotency-key': 'sync-1' };
  const first = await sync({ entities: ['taxes'] }, { headers });
  const second = await sync({ entities: ['taxes'] }, { headers });
  assert.equal(first.status, 202);
  assert.equal(second.status, 202);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.body.data.id, first.body.data.id);
  const reused = await sync({ entities: ['clients'] }, { headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  const jobs = await t.db.db
    .selectFrom('jobs')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('type', '=', 'reference_data_sync')
    .where(sql<boolean>`params = '{"entities": ["taxes"]}'::jsonb`)
    .execute();
  assert.equal(jobs.length, 1);
});

test('a job whose key was revoked before it ran fails with the reason and records nothing', async () => {
  const key = await t.db.db
    .insertInto('api_keys')
    .values({
      company_id: t.tenant.companyId,
      name: 'soon revoked',
      key_prefix: 'svc_live_x',
      key_hash: `hash-${Date.now()}`,
      scopes: ['admin', 'write', 'read'],
      is_active: false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const job = await t.db.db
    .insertInto('jobs')
    .values({
      company_id: t.tenant.companyId,
      type: 'reference_data_sync',
      params: JSON.stringify({ entities: ['taxes'] }),
      api_key_id: key.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await runJobsOnce(t.db.db, loadModules().jobs);
  const stored = await storedJob(job.id);
  assert.equal(stored.status, 'failed');
  assert.match(stored.error ?? '', /revoked/);
  assert.equal(stored.result, null);
});

test('both integration routes need the financials tier', async () => {
  for (const key of ['read', 'write', 'personal', 'personalAdmin']) {
    for (const [method, path, body] of [
      ['GET', '/integrations/invoices', undefined],
      ['POST', '/integrations/reference-data/sync', {}],
    ] as const) {
      const res = await t.request(method, path, { key, body });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  }
});
