import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();

test('every v3 write leaves an audit entry: who, what, when, which fields', async () => {
  const created = await t.request('POST', '/clients', { key: 'write', body: { name: 'Audited', reg_code: 'R1' } });
  assert.equal(created.status, 201);
  const id = created.body.data.id;
  assert.equal((await t.request('PATCH', `/clients/${id}`, { key: 'write', body: { vat_code: 'V1' } })).status, 200);
  assert.equal((await t.request('DELETE', `/clients/${id}`, { key: 'write' })).status, 204);
  const list = await t.request('GET', `/activities?entity=client&record_id=${id}`, { key: 'read' });
  assert.equal(list.status, 200, list.text);
  const rows = list.body.data;
  assert.deepEqual(
    rows.map((r: any) => r.action),
    ['deleted', 'updated', 'created'],
  );
  assert.deepEqual(rows[2].fields, ['name', 'reg_code']);
  assert.deepEqual(rows[1].fields, ['vat_code']);
  for (const row of rows) {
    assert.equal(row.api_key_id, t.tenant.keyIds.write);
    assert.equal(row.person_id, t.tenant.ownerPersonId);
    assert.match(row.occurred_at, /Z$/);
  }
  assert.equal(rows[1].path, `/api/v3/clients/${id}`);
  const one = await t.request('GET', `/activities/${rows[0].id}`, { key: 'read' });
  assert.equal(one.status, 200);
  assert.equal(one.body.data.id, rows[0].id);
});

test('reads, failed writes and idempotent replays are not recorded', async () => {
  const before = await t.db.db
    .selectFrom('activities')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  await t.request('GET', '/clients', { key: 'read' });
  assert.equal((await t.request('POST', '/clients', { key: 'write', body: { name: '' } })).status, 400);
  const headers = { 'idempotency-key': 'audit-once' };
  assert.equal((await t.request('POST', '/clients', { key: 'write', body: { name: 'Once' }, headers })).status, 201);
  const replay = await t.request('POST', '/clients', { key: 'write', body: { name: 'Once' }, headers });
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  const after = await t.db.db
    .selectFrom('activities')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(after.n) - Number(before.n), 1);
});

test('a plain member sees only their own trail; other tenants see none of it', async () => {
  const own = await t.request('POST', '/clients', { key: 'personal', body: { name: 'Mine' } });
  assert.equal(own.status, 201, own.text);
  const list = await t.request('GET', '/activities', { key: 'personal' });
  assert.equal(list.status, 200);
  assert.ok(list.body.data.length >= 1);
  assert.ok(list.body.data.every((r: any) => r.person_id === t.tenant.memberPersonId));
  const other = await t.newTenant();
  const theirs = await t.request('GET', '/activities', { key: 'admin', tenant: other });
  assert.equal(theirs.body.meta.total, 0);
  const ownerRow = (await t.request('GET', '/activities?entity=client&action=deleted', { key: 'admin' })).body.data[0];
  assert.equal((await t.request('GET', `/activities/${ownerRow.id}`, { key: 'admin', tenant: other })).status, 404);
  assert.equal((await t.request('GET', `/activities/${ownerRow.id}`, { key: 'personal' })).status, 404);
});

test('activity filters validate their values and the list is offset-only', async () => {
  assert.equal((await t.request('GET', '/activities?record_id=abc')).status, 422);
  assert.equal((await t.request('GET', '/activities?occurred_from=yesterday')).body.error.code, 'INVALID_FILTER_VALUE');
  assert.equal((await t.request('GET', '/activities?colour=red')).body.error.code, 'UNKNOWN_FILTER_FIELD');
  assert.equal((await t.request('GET', '/activities?cursor=abc.def')).body.error.code, 'INVALID_CURSOR');
});

// Issue 24 item 6: the trail of a financial write shows its path and field names only to a key with financials.
test('financial writes are in the trail for keys with the financials tier only', async () => {
  const tenant = await t.newTenant({ name: 'Audit Finance Co' });
  const client = await t.request('POST', '/clients', { tenant, body: { name: 'Plain write' } });
  assert.equal(client.status, 201, client.text);
  const settings = await t.request('PATCH', '/company/billing-settings', {
    tenant,
    body: { billing_active: true },
  });
  assert.equal(settings.status, 200, settings.text);
  const financialId = (await t.request('GET', '/activities?entity=billing_settings', { tenant })).body.data[0].id;

  const admin = await t.request('GET', '/activities', { tenant, key: 'admin' });
  assert.deepEqual(
    admin.body.data.map((r: any) => [r.entity, r.path]),
    [
      ['billing_settings', '/api/v3/company/billing-settings'],
      ['client', '/api/v3/clients'],
    ],
  );
  for (const key of ['read', 'write', 'personalAdmin'] as const) {
    const list = await t.request('GET', '/activities', { tenant, key });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.data.map((r: any) => r.entity),
      ['client'],
      `${key}: no financial entry`,
    );
    assert.equal(list.body.meta.total, 1, `${key}: the total does not count it either`);
    const filtered = await t.request('GET', '/activities?entity=billing_settings', { tenant, key });
    assert.deepEqual(filtered.body.data, [], key);
    const one = await t.request('GET', `/activities/${financialId}`, { tenant, key });
    assert.equal(one.status, 404, `${key}: as if absent`);
  }
  assert.equal((await t.request('GET', `/activities/${financialId}`, { tenant, key: 'admin' })).status, 200);
  const stored = await t.db.db
    .selectFrom('activities')
    .select(['id', 'entity', 'financial'])
    .where('company_id', '=', tenant.companyId)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    stored.map((r) => [r.entity, r.financial]),
    [
      ['client', false],
      ['billing_settings', true],
    ],
  );
});
