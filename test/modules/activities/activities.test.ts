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
