import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

async function createRole(body: Record<string, unknown>, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/workflow-roles', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const storedRole = (id: number, companyId = t.tenant.companyId) =>
  t.db.db
    .selectFrom('workflow_roles')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();

const countRoles = async () =>
  (
    await t.db.db
      .selectFrom('workflow_roles')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

async function insertTask(roleIds: number[], status = 'new'): Promise<number> {
  const res = await sql<{ id: number }>`insert into tasks (company_id, title, status, workflow_role_ids)
    values (${t.tenant.companyId}, 'Role task', ${status}, ${roleIds}::int[]) returning id`.execute(t.db.db);
  return res.rows[0]!.id;
}

async function insertClientMember(roleId: number): Promise<{ clientId: number; memberId: number }> {
  const client = await t.db.db
    .insertInto('clients')
    .values({
      company_id: t.tenant.companyId,
      name: 'Role client',
      status: 'active',
      timing_required: 0,
      topic_required: 0,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const member = await t.db.db
    .insertInto('client_members')
    .values({
      company_id: t.tenant.companyId,
      client_id: client.id,
      person_id: t.tenant.memberPersonId,
      role: null,
      workflow_role_id: roleId,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return { clientId: client.id, memberId: member.id };
}

test('create, read, list, update and delete a workflow role; every answer carries X-Api-Preview', async () => {
  const created = await t.request('POST', '/workflow-roles', {
    key: 'write',
    body: { name: 'Reviewer', color: '#12abEF' },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const role = created.body.data;
  assert.deepEqual(Object.keys(role).sort(), ['color', 'created_at', 'id', 'name', 'sort_order', 'updated_at']);
  assert.equal(role.name, 'Reviewer');
  assert.equal(role.color, '#12abEF');
  assert.equal(typeof role.sort_order, 'number');
  assert.match(role.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(created.headers.get('etag'), `"${role.updated_at}"`);
  const row = await storedRole(role.id);
  assert.equal(row?.name, 'Reviewer');
  assert.equal(row?.sort_order, role.sort_order);

  const read = await t.request('GET', `/workflow-roles/${role.id}`, { key: 'write' });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('x-api-preview'), 'true');
  assert.deepEqual(read.body.data, role);

  const listed = await t.request('GET', '/workflow-roles', { key: 'write' });
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.headers.get('x-api-preview'), 'true');
  assert.ok(listed.body.data.some((r: { id: number }) => r.id === role.id));

  const patched = await t.request('PATCH', `/workflow-roles/${role.id}`, {
    key: 'write',
    body: { name: 'Lead reviewer', color: null, sort_order: 40 },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.headers.get('x-api-preview'), 'true');
  assert.deepEqual(
    { ...patched.body.data, updated_at: undefined },
    { ...role, name: 'Lead reviewer', color: null, sort_order: 40, updated_at: undefined },
  );
  assert.ok(patched.body.data.updated_at > role.updated_at);
  const afterPatch = await storedRole(role.id);
  assert.equal(afterPatch?.sort_order, 40);
  assert.equal(afterPatch?.color, null);
  const unchanged = await t.request('PATCH', `/workflow-roles/${role.id}`, { body: {} });
  assert.deepEqual(unchanged.body.data, patched.body.data);

  const deleted = await t.request('DELETE', `/workflow-roles/${role.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  assert.equal(deleted.headers.get('x-api-preview'), 'true');
  assert.notEqual((await storedRole(role.id))?.deleted_at, null);
  const gone = await t.request('GET', `/workflow-roles/${role.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NOT_FOUND');
  assert.equal(gone.headers.get('x-api-preview'), 'true');
  assert.equal((await t.request('PATCH', `/workflow-roles/${role.id}`, { body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/workflow-roles/${role.id}`)).status, 404);
  assert.ok(!(await t.request('GET', '/workflow-roles')).body.data.some((r: { id: number }) => r.id === role.id));
});

test('sort_order defaults to one after the highest and the list is ordered by sort_order, then id', async () => {
  const tenant = await t.newTenant({ name: 'Ordering Co' });
  const first = await t.request('POST', '/workflow-roles', { tenant, body: { name: 'First' } });
  assert.equal(first.body.data.sort_order, 1);
  assert.equal(first.body.data.color, null);
  const second = await t.request('POST', '/workflow-roles', { tenant, body: { name: 'Second' } });
  assert.equal(second.body.data.sort_order, 2);
  const jump = await t.request('POST', '/workflow-roles', { tenant, body: { name: 'Jump', sort_order: 10 } });
  assert.equal(jump.body.data.sort_order, 10);
  const after = await t.request('POST', '/workflow-roles', { tenant, body: { name: 'After' } });
  assert.equal(after.body.data.sort_order, 11);
  const zero = await t.request('POST', '/workflow-roles', { tenant, body: { name: 'Zero', sort_order: 0 } });
  const tie = await t.request('POST', '/workflow-roles', { tenant, body: { name: 'Tie', sort_order: 2 } });
  assert.equal(
    (
      await t.db.db
        .selectFrom('workflow_roles')
        .select('sort_order')
        .where('id', '=', after.body.data.id)
        .executeTakeFirst()
    )?.sort_order,
    11,
  );

  const listed = await t.request('GET', '/workflow-roles', { tenant, key: 'write' });
  assert.equal(listed.status, 200);
  assert.deepEqual(
    listed.body.data.map((r: { name: string }) => r.name),
    ['Zero', 'First', 'Second', 'Tie', 'Jump', 'After'],
  );
  assert.ok(tie.body.data.id > second.body.data.id);
  assert.deepEqual(listed.body.meta, { total: 6, limit: 100, offset: 0, has_more: false });
  assert.equal(zero.body.data.sort_order, 0);

  const page = await t.request('GET', '/workflow-roles?limit=2&offset=2', { tenant });
  assert.deepEqual(
    page.body.data.map((r: { name: string }) => r.name),
    ['Second', 'Tie'],
  );
  assert.deepEqual(page.body.meta, { total: 6, limit: 2, offset: 2, has_more: true });
});

test('the list default limit is 100, and it is offset-only without a sort parameter', async () => {
  const tenant = await t.newTenant({ name: 'Many roles Co' });
  await sql`insert into workflow_roles (company_id, name, sort_order) select ${tenant.companyId}, 'Bulk ' || n, n from generate_series(1, 105) n`.execute(
    t.db.db,
  );
  const listed = await t.request('GET', '/workflow-roles', { tenant, key: 'write' });
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.body.data.length, 100);
  assert.deepEqual(listed.body.meta, { total: 105, limit: 100, offset: 0, has_more: true });
  assert.equal('next_cursor' in listed.body.meta, false);
  const rest = await t.request('GET', '/workflow-roles?offset=100', { tenant });
  assert.equal(rest.body.data.length, 5);
  assert.equal(rest.body.data[4].name, 'Bulk 105');
  const max = await t.request('GET', '/workflow-roles?limit=200', { tenant });
  assert.equal(max.body.data.length, 105);

  for (const query of ['sort=name', 'sort=sort_order', 'sort=-id']) {
    const res = await t.request('GET', `/workflow-roles?${query}`, { tenant });
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.equal(res.body.error.code, 'UNKNOWN_FILTER_FIELD');
    assert.equal(res.body.error.details.field, 'sort');
    assert.equal(res.headers.get('x-api-preview'), 'true');
  }
  const cursor = await t.request('GET', '/workflow-roles?cursor=abc.def', { tenant });
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  const unknown = await t.request('GET', '/workflow-roles?name=Bulk', { tenant });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  for (const query of ['limit=0', 'limit=201', 'offset=10001', 'limit=abc']) {
    const res = await t.request('GET', `/workflow-roles?${query}`, { tenant });
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
});

const badBodies: Array<[string, Record<string, unknown>, string]> = [
  ['empty name', { name: '' }, 'name'],
  ['256-character name', { name: 'x'.repeat(256) }, 'name'],
  ['colour by name', { name: 'R', color: 'red' }, 'color'],
  ['short hex colour', { name: 'R', color: '#abc' }, 'color'],
  ['negative sort_order', { name: 'R', sort_order: -1 }, 'sort_order'],
  ['fractional sort_order', { name: 'R', sort_order: 1.5 }, 'sort_order'],
  ['sort_order as text', { name: 'R', sort_order: '3' }, 'sort_order'],
  ['sort_order too large', { name: 'R', sort_order: 1_000_001 }, 'sort_order'],
  ['unknown field', { name: 'R', rank: 1 }, 'rank'],
];

test('create and update refuse invalid bodies with 400 VALIDATION_ERROR and store nothing', async () => {
  const before = await countRoles();
  for (const [why, body, field] of [...badBodies, ['missing name', { color: '#000000' }, 'name'] as const]) {
    const res = await t.request('POST', '/workflow-roles', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
    assert.ok(JSON.stringify(res.body.error.details.errors).includes(field), `${why}: ${res.text}`);
  }
  assert.equal(await countRoles(), before);
  const id = await createRole({ name: 'Steady' });
  const stored = await storedRole(id);
  for (const [why, body] of badBodies) {
    const res = await t.request('PATCH', `/workflow-roles/${id}`, { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
  }
  assert.deepEqual(await storedRole(id), stored);
  assert.equal((await t.request('GET', '/workflow-roles/0')).body.error.code, 'VALIDATION_ERROR');
  assert.equal((await t.request('GET', '/workflow-roles/abc')).status, 400);
});

test('DELETE answers 409 ROLE_IN_USE while an active task holds the role', async () => {
  const id = await createRole({ name: 'Task role' });
  const other = await createRole({ name: 'Other role' });
  const taskId = await insertTask([other, id]);
  const refused = await t.request('DELETE', `/workflow-roles/${id}`);
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.error.code, 'ROLE_IN_USE');
  assert.deepEqual(refused.body.error.details, { tasks: 1, client_members: 0 });
  assert.equal(refused.headers.get('x-api-preview'), 'true');
  assert.equal((await storedRole(id))?.deleted_at, null);

  // Every open status counts; finished and archived tasks are history and do not.
  for (const status of ['in_progress', 'inactive']) {
    await t.db.db.updateTable('tasks').set({ status }).where('id', '=', taskId).execute();
    assert.equal((await t.request('DELETE', `/workflow-roles/${id}`)).status, 409, status);
  }
  const second = await insertTask([id], 'new');
  assert.deepEqual((await t.request('DELETE', `/workflow-roles/${id}`)).body.error.details, {
    tasks: 2,
    client_members: 0,
  });
  await t.db.db
    .updateTable('tasks')
    .set({ deleted_at: sql`now()` as never })
    .where('id', '=', second)
    .execute();
  await t.db.db.updateTable('tasks').set({ status: 'finished' }).where('id', '=', taskId).execute();
  await insertTask([id], 'archived');
  const ok = await t.request('DELETE', `/workflow-roles/${id}`);
  assert.equal(ok.status, 204, ok.text);
  assert.notEqual((await storedRole(id))?.deleted_at, null);
  // The other role on the finished task is not in use either (finished), so it goes too.
  assert.equal((await t.request('DELETE', `/workflow-roles/${other}`)).status, 204);
});

test('DELETE answers 409 ROLE_IN_USE while a client member holds the role', async () => {
  const id = await createRole({ name: 'Member role' });
  const { memberId } = await insertClientMember(id);
  const refused = await t.request('DELETE', `/workflow-roles/${id}`);
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.error.code, 'ROLE_IN_USE');
  assert.deepEqual(refused.body.error.details, { tasks: 0, client_members: 1 });
  await insertTask([id]);
  assert.deepEqual((await t.request('DELETE', `/workflow-roles/${id}`)).body.error.details, {
    tasks: 1,
    client_members: 1,
  });
  await t.db.db
    .updateTable('tasks')
    .set({ status: 'finished' })
    .where(sql<boolean>`workflow_role_ids @> array[${id}]::int[]`)
    .execute();

  // A removed member, or a member of a deleted client, no longer holds the role.
  await t.db.db
    .updateTable('client_members')
    .set({ deleted_at: sql`now()` as never })
    .where('id', '=', memberId)
    .execute();
  const second = await insertClientMember(id);
  assert.equal((await t.request('DELETE', `/workflow-roles/${id}`)).status, 409);
  await t.db.db
    .updateTable('clients')
    .set({ deleted_at: sql`now()` as never })
    .where('id', '=', second.clientId)
    .execute();
  const ok = await t.request('DELETE', `/workflow-roles/${id}`);
  assert.equal(ok.status, 204, ok.text);
  assert.notEqual((await storedRole(id))?.deleted_at, null);
});

test("another tenant's workflow role answers 404 and is never counted or listed", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const foreign = await createRole({ name: 'Their role' }, other);
  const before = await storedRole(foreign, other.companyId);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { name: 'Mine now' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/workflow-roles/${foreign}`, { body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual(await storedRole(foreign, other.companyId), before);
  assert.ok(
    !(await t.request('GET', '/workflow-roles?limit=200')).body.data.some((r: { id: number }) => r.id === foreign),
  );
  // This tenant's task naming the same id does not hold the other tenant's role.
  await insertTask([foreign]);
  assert.equal((await t.request('DELETE', `/workflow-roles/${foreign}`, { tenant: other })).status, 204);
});

test('a read key can neither read nor write (403 FORBIDDEN naming write); personal keys of members and owners read the company list, only an owner key writes it', async () => {
  const id = await createRole({ name: 'Guarded' });
  const before = await storedRole(id);
  const total = await countRoles();
  const attempts = [
    ['POST', '/workflow-roles', { name: 'Nope' }],
    ['PATCH', `/workflow-roles/${id}`, { name: 'Nope' }],
    ['DELETE', `/workflow-roles/${id}`, undefined],
  ] as const;
  for (const [method, path, body] of attempts) {
    const res = await t.request(method, path, { key: 'read', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_scope, 'write');
  }
  // The spec's row reads "GET/POST/PATCH/DELETE, write": reads need write too (decision 0050).
  for (const path of ['/workflow-roles', `/workflow-roles/${id}`]) {
    const res = await t.request('GET', path, { key: 'read' });
    assert.deepEqual([res.status, res.body.error?.details], [403, { required_scope: 'write' }], path);
  }
  assert.deepEqual(await storedRole(id), before);
  assert.equal(await countRoles(), total);

  const all = (await t.request('GET', '/workflow-roles?limit=200')).body.data;
  for (const key of ['personal', 'personalAdmin'] as const) {
    const listed = await t.request('GET', '/workflow-roles?limit=200', { key });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.data, all, key);
    assert.equal((await t.request('GET', `/workflow-roles/${id}`, { key })).status, 200);
  }
  for (const [method, path, body] of attempts) {
    const res = await t.request(method, path, { key: 'personal', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_role, 'owner or admin');
  }
  assert.deepEqual(await storedRole(id), before);
  assert.equal(await countRoles(), total);
  const made = await t.request('POST', '/workflow-roles', { key: 'personalAdmin', body: { name: 'By the owner' } });
  assert.equal(made.status, 201, made.text);
  assert.equal(
    (await t.request('DELETE', `/workflow-roles/${made.body.data.id}`, { key: 'personalAdmin' })).status,
    204,
  );
});

test('Idempotency-Key on POST /workflow-roles replays the stored answer and creates one role', async () => {
  const body = { name: 'Idempotent role' };
  const headers = { 'idempotency-key': 'wr-create-1' };
  const first = await t.request('POST', '/workflow-roles', { body, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/workflow-roles', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.text, first.text);
  const rows = await t.db.db.selectFrom('workflow_roles').select('id').where('name', '=', 'Idempotent role').execute();
  assert.deepEqual(rows, [{ id: first.body.data.id }]);
  const reused = await t.request('POST', '/workflow-roles', { body: { name: 'Different' }, headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});
