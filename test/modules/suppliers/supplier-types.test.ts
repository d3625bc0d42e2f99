import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();

const DEFAULTS = ['Subcontractor', 'Goods', 'Services', 'Software and subscriptions', 'Office and facilities'];

test('every new company starts with the default supplier types, listed offset-only', async () => {
  const res = await t.request('GET', '/supplier-types', { key: 'write' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  assert.deepEqual(
    res.body.data.map((r: { name: string; status: string }) => [r.name, r.status]),
    DEFAULTS.map((name) => [name, 'active']),
  );
  assert.deepEqual(Object.keys(res.body.data[0]).sort(), ['created_at', 'id', 'name', 'status', 'updated_at']);
  assert.deepEqual(res.body.meta, { total: 5, limit: 50, offset: 0, has_more: false });
  const other = await t.newTenant({ name: 'Seeded Co' });
  const stored = await t.db.db
    .selectFrom('supplier_types')
    .select('name')
    .where('company_id', '=', other.companyId)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    stored.map((r) => r.name),
    DEFAULTS,
  );
  const cursor = await t.request('GET', '/supplier-types?cursor=abc');
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
});

test('filters status and q; sort by name', async () => {
  const list = await t.request('GET', '/supplier-types?q=SOFT', { key: 'write' });
  assert.deepEqual(
    list.body.data.map((r: { name: string }) => r.name),
    ['Software and subscriptions'],
  );
  const sorted = await t.request('GET', '/supplier-types?sort=-name&limit=2');
  assert.deepEqual(
    sorted.body.data.map((r: { name: string }) => r.name),
    ['Subcontractor', 'Software and subscriptions'],
  );
  assert.equal(sorted.body.meta.has_more, true);
  const bad = await t.request('GET', '/supplier-types?status=deleted');
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
  const unknown = await t.request('GET', '/supplier-types?kind=x');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test('PATCH renames or switches a type off; no POST or DELETE; config writes need owner or admin', async () => {
  const list = await t.request('GET', '/supplier-types?q=Goods');
  const goods = list.body.data[0];
  const read = await t.request('GET', `/supplier-types/${goods.id}`, { key: 'write' });
  // The spec's row reads "GET/PATCH, write": a read key does not reach it (decision 0050).
  const readRefused = await t.request('GET', `/supplier-types/${goods.id}`, { key: 'read' });
  assert.deepEqual(
    [readRefused.status, readRefused.body.error.code, readRefused.body.error.details],
    [403, 'FORBIDDEN', { required_scope: 'write' }],
  );
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.data, goods);
  const patched = await t.request('PATCH', `/supplier-types/${goods.id}`, {
    key: 'write',
    body: { name: 'Materials', status: 'inactive' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.name, 'Materials');
  assert.equal(patched.body.data.status, 'inactive');
  assert.ok(patched.body.data.updated_at > goods.updated_at);
  const row = await t.db.db
    .selectFrom('supplier_types')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', goods.id)
    .executeTakeFirstOrThrow();
  assert.equal(row.name, 'Materials');
  assert.equal(row.status, 'inactive');
  const inactive = await t.request('GET', '/supplier-types?status=inactive');
  assert.deepEqual(
    inactive.body.data.map((r: { id: number }) => r.id),
    [goods.id],
  );

  const readKey = await t.request('PATCH', `/supplier-types/${goods.id}`, { key: 'read', body: { name: 'x' } });
  assert.equal(readKey.status, 403);
  assert.equal(readKey.body.error.code, 'FORBIDDEN');
  const member = await t.request('PATCH', `/supplier-types/${goods.id}`, { key: 'personal', body: { name: 'x' } });
  assert.equal(member.status, 403);
  assert.equal(member.body.error.details.required_role, 'owner or admin');
  for (const [method, path] of [
    ['POST', '/supplier-types'],
    ['DELETE', `/supplier-types/${goods.id}`],
  ] as const) {
    const res = await t.request(method, path, { body: method === 'POST' ? { name: 'New' } : undefined });
    assert.equal(res.status, 404, `${method} ${res.text}`);
  }
  for (const body of [{ name: '' }, { status: 'archived' }, { name: 'ok', id: 3 }, { name: 'a\u0000b' }, { name: 7 }]) {
    const res = await t.request('PATCH', `/supplier-types/${goods.id}`, { body });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
});

test("tenant isolation: another company's supplier type is 404 and unchanged", async () => {
  const other = await t.newTenant({ name: 'Types Neighbour Co' });
  const theirs = await t.request('GET', '/supplier-types?q=Services', { tenant: other });
  const id = theirs.body.data[0].id;
  const ours = await t.request('GET', '/supplier-types?q=Services');
  assert.notEqual(ours.body.data[0].id, id);
  for (const [method, body] of [['GET'], ['PATCH', { name: 'Hijacked' }]] as const) {
    const res = await t.request(method, `/supplier-types/${id}`, { body });
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  const row = await t.db.db
    .selectFrom('supplier_types')
    .select('name')
    .where('company_id', '=', other.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  assert.equal(row.name, 'Services');
});
