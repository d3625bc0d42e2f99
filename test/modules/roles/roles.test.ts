import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

async function createRole(body: Record<string, unknown>, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/roles', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const storedRole = (id: number, companyId = t.tenant.companyId) =>
  t.db.db.selectFrom('roles').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();

const countRoles = async () =>
  (
    await t.db.db
      .selectFrom('roles')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

test('create, read, list, update and delete a role (job title); every answer carries X-Api-Preview', async () => {
  const created = await t.request('POST', '/roles', { key: 'write', body: { name: 'Accountant' } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const role = created.body.data;
  assert.deepEqual(Object.keys(role).sort(), ['created_at', 'id', 'name', 'updated_at']);
  assert.equal(role.name, 'Accountant');
  assert.match(role.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(created.headers.get('etag'), `"${role.updated_at}"`);
  assert.equal((await storedRole(role.id))?.name, 'Accountant');

  const read = await t.request('GET', `/roles/${role.id}`, { key: 'write' });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('x-api-preview'), 'true');
  assert.deepEqual(read.body.data, role);

  const patched = await t.request('PATCH', `/roles/${role.id}`, { key: 'write', body: { name: 'Senior accountant' } });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.headers.get('x-api-preview'), 'true');
  assert.equal(patched.body.data.name, 'Senior accountant');
  assert.ok(patched.body.data.updated_at > role.updated_at);
  assert.equal((await storedRole(role.id))?.name, 'Senior accountant');
  const unchanged = await t.request('PATCH', `/roles/${role.id}`, { body: {} });
  assert.deepEqual(unchanged.body.data, patched.body.data);

  // A member's title is free text, not a reference: deleting a title in use is a plain soft delete.
  await t.db.db
    .updateTable('members')
    .set({ title: 'Senior accountant' })
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', t.tenant.memberPersonId)
    .execute();
  const deleted = await t.request('DELETE', `/roles/${role.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  assert.equal(deleted.headers.get('x-api-preview'), 'true');
  assert.notEqual((await storedRole(role.id))?.deleted_at, null);
  const member = await t.db.db
    .selectFrom('members')
    .select('title')
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', t.tenant.memberPersonId)
    .executeTakeFirst();
  assert.equal(member?.title, 'Senior accountant');
  const gone = await t.request('GET', `/roles/${role.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('PATCH', `/roles/${role.id}`, { body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/roles/${role.id}`)).status, 404);
  assert.ok(!(await t.request('GET', '/roles?limit=200')).body.data.some((r: { id: number }) => r.id === role.id));
});

test('the list is ordered by id, offset-only, default limit 100, and refuses sort and cursor', async () => {
  const tenant = await t.newTenant({ name: 'Many titles Co' });
  await sql`insert into roles (company_id, name) select ${tenant.companyId}, 'Title ' || n from generate_series(1, 103) n`.execute(
    t.db.db,
  );
  const listed = await t.request('GET', '/roles', { tenant, key: 'write' });
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.headers.get('x-api-preview'), 'true');
  assert.equal(listed.body.data.length, 100);
  assert.deepEqual(listed.body.meta, { total: 103, limit: 100, offset: 0, has_more: true });
  const ids = listed.body.data.map((r: { id: number }) => r.id);
  assert.deepEqual(
    ids,
    [...ids].sort((a: number, b: number) => a - b),
  );
  assert.equal(listed.body.data[0].name, 'Title 1');
  const rest = await t.request('GET', '/roles?offset=100&limit=10', { tenant });
  assert.deepEqual(
    rest.body.data.map((r: { name: string }) => r.name),
    ['Title 101', 'Title 102', 'Title 103'],
  );
  assert.deepEqual(rest.body.meta, { total: 103, limit: 10, offset: 100, has_more: false });

  for (const query of ['sort=name', 'sort=-id']) {
    const res = await t.request('GET', `/roles?${query}`, { tenant });
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.equal(res.body.error.code, 'UNKNOWN_FILTER_FIELD');
    assert.equal(res.body.error.details.field, 'sort');
  }
  const cursor = await t.request('GET', '/roles?cursor=abc.def', { tenant });
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  const unknown = await t.request('GET', '/roles?q=Title', { tenant });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const badLimit = await t.request('GET', '/roles?limit=201', { tenant });
  assert.equal(badLimit.status, 400);
  assert.equal(badLimit.body.error.code, 'VALIDATION_ERROR');
});

const badBodies: Array<[string, Record<string, unknown>, string]> = [
  ['empty name', { name: '' }, 'name'],
  ['256-character name', { name: 'x'.repeat(256) }, 'name'],
  ['name as number', { name: 12 }, 'name'],
  ['null name', { name: null }, 'name'],
  ['unknown field', { name: 'R', color: '#000000' }, 'color'],
];

test('create and update refuse invalid bodies with 400 VALIDATION_ERROR and store nothing', async () => {
  const before = await countRoles();
  for (const [why, body, field] of [...badBodies, ['missing name', {}, 'name'] as const]) {
    const res = await t.request('POST', '/roles', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
    assert.ok(JSON.stringify(res.body.error.details.errors).includes(field), `${why}: ${res.text}`);
  }
  assert.equal(await countRoles(), before);
  const id = await createRole({ name: 'Steady' });
  const stored = await storedRole(id);
  for (const [why, body] of badBodies) {
    const res = await t.request('PATCH', `/roles/${id}`, { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
  }
  assert.deepEqual(await storedRole(id), stored);
  const name255 = await t.request('POST', '/roles', { body: { name: 'y'.repeat(255) } });
  assert.equal(name255.status, 201);
});

test("another tenant's role answers 404 on GET, PATCH and DELETE and stays untouched", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const foreign = await createRole({ name: 'Their title' }, other);
  const before = await storedRole(foreign, other.companyId);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { name: 'Mine' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/roles/${foreign}`, { body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual(await storedRole(foreign, other.companyId), before);
  assert.ok(!(await t.request('GET', '/roles?limit=200')).body.data.some((r: { id: number }) => r.id === foreign));
});

test('a read key can neither read nor write (403 FORBIDDEN naming write); personal keys see the company list, only an owner key writes it', async () => {
  const id = await createRole({ name: 'Guarded' });
  const before = await storedRole(id);
  const total = await countRoles();
  const attempts = [
    ['POST', '/roles', { name: 'Nope' }],
    ['PATCH', `/roles/${id}`, { name: 'Nope' }],
    ['DELETE', `/roles/${id}`, undefined],
  ] as const;
  for (const [method, path, body] of attempts) {
    const res = await t.request(method, path, { key: 'read', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_scope, 'write');
  }
  // The spec's row reads "GET/POST/PATCH/DELETE, write": reads need write too (decision 0050).
  for (const path of ['/roles', `/roles/${id}`]) {
    const res = await t.request('GET', path, { key: 'read' });
    assert.deepEqual([res.status, res.body.error?.details], [403, { required_scope: 'write' }], path);
  }
  assert.deepEqual(await storedRole(id), before);
  assert.equal(await countRoles(), total);
  for (const key of ['personal', 'personalAdmin'] as const) {
    const all = (await t.request('GET', '/roles?limit=200')).body.data;
    const listed = await t.request('GET', '/roles?limit=200', { key });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.data, all, key);
  }
  const unchanged = await storedRole(id);
  for (const [method, path, body] of attempts) {
    const res = await t.request(method, path, { key: 'personal', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_role, 'owner or admin');
  }
  assert.deepEqual(await storedRole(id), unchanged);
  assert.equal(await countRoles(), total);
  const patched = await t.request('PATCH', `/roles/${id}`, {
    key: 'personalAdmin',
    body: { name: 'Renamed by owner' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal((await storedRole(id))?.name, 'Renamed by owner');
});

test('Idempotency-Key on POST /roles replays the stored answer and creates one role', async () => {
  const body = { name: 'Idempotent title' };
  const headers = { 'idempotency-key': 'role-create-1' };
  const first = await t.request('POST', '/roles', { body, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/roles', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.text, first.text);
  const rows = await t.db.db.selectFrom('roles').select('id').where('name', '=', 'Idempotent title').execute();
  assert.deepEqual(rows, [{ id: first.body.data.id }]);
});
