import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

async function createClient(name: string, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/clients', { body: { name }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

async function insertTask(
  title: string,
  options: { clientId?: number; companyId?: string; deleted?: boolean; assignee?: number } = {},
): Promise<number> {
  const companyId = options.companyId ?? t.tenant.companyId;
  const row = await t.db.db
    .insertInto('tasks')
    .values({
      company_id: companyId,
      title,
      client_id: options.clientId ?? null,
      ...(options.deleted ? { deleted_at: new Date().toISOString() } : {}),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  if (options.assignee)
    await t.db.db
      .insertInto('task_assignees')
      .values({ company_id: companyId, task_id: row.id, person_id: options.assignee })
      .execute();
  return row.id;
}

async function relate(taskId: number, dependsOnId: number): Promise<number> {
  const res = await t.request('POST', '/task-relations', { body: { task_id: taskId, depends_on_id: dependsOnId } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const liveRelations = () =>
  t.db.db
    .selectFrom('task_relations')
    .select(['id', 'task_id', 'depends_on_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();

const visibleClient = await createClient('Relations visible');
const hiddenClient = await createClient('Relations hidden');
await t.db.db
  .insertInto('client_members')
  .values({
    company_id: t.tenant.companyId,
    client_id: visibleClient,
    person_id: t.tenant.memberPersonId,
    role: null,
    workflow_role_id: null,
  })
  .execute();

test('create, read, list by task and delete a relation; preview header on every answer', async () => {
  const a = await insertTask('Design');
  const b = await insertTask('Build');
  const created = await t.request('POST', '/task-relations', { key: 'write', body: { task_id: b, depends_on_id: a } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const relation = created.body.data;
  assert.deepEqual(Object.keys(relation).sort(), ['created_at', 'depends_on_id', 'id', 'task_id', 'updated_at']);
  assert.equal(relation.task_id, b);
  assert.equal(relation.depends_on_id, a);
  const stored = await t.db.db
    .selectFrom('task_relations')
    .selectAll()
    .where('id', '=', relation.id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.company_id, t.tenant.companyId);
  assert.equal(stored.deleted_at, null);

  const read = await t.request('GET', `/task-relations/${relation.id}`, { key: 'read' });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('x-api-preview'), 'true');
  assert.deepEqual(read.body.data, relation);
  const byTask = await t.request('GET', `/task-relations?task_id=${b}`, { key: 'read' });
  assert.equal(byTask.status, 200, byTask.text);
  assert.equal(byTask.headers.get('x-api-preview'), 'true');
  assert.deepEqual(byTask.body.data, [relation]);
  assert.deepEqual(byTask.body.meta, { total: 1, limit: 50, offset: 0, has_more: false });
  assert.deepEqual((await t.request('GET', `/task-relations?task_id=${a}`)).body.data, []);
  assert.deepEqual((await t.request('GET', `/task-relations?depends_on_id=${a}`)).body.data, [relation]);

  const deleted = await t.request('DELETE', `/task-relations/${relation.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.headers.get('x-api-preview'), 'true');
  assert.notEqual(
    (
      await t.db.db
        .selectFrom('task_relations')
        .select('deleted_at')
        .where('id', '=', relation.id)
        .executeTakeFirstOrThrow()
    ).deleted_at,
    null,
  );
  const gone = await t.request('GET', `/task-relations/${relation.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.headers.get('x-api-preview'), 'true');
  assert.equal((await t.request('DELETE', `/task-relations/${relation.id}`)).status, 404);
  const again = await t.request('POST', '/task-relations', { body: { task_id: b, depends_on_id: a } });
  assert.equal(again.status, 201, 'a deleted relation can be made again');
});

test('validation: self-dependency, missing or wrong-typed fields, unknown fields; no PATCH', async () => {
  const a = await insertTask('Self');
  const before = (await liveRelations()).length;
  const self = await t.request('POST', '/task-relations', { body: { task_id: a, depends_on_id: a } });
  assert.equal(self.status, 400);
  assert.equal(self.body.error.code, 'VALIDATION_ERROR');
  assert.equal(self.body.error.details.reason, 'SELF_DEPENDENCY');
  for (const body of [
    { task_id: a },
    { depends_on_id: a },
    { task_id: String(a), depends_on_id: a },
    { task_id: a, depends_on_id: 0 },
    { task_id: a, depends_on_id: a + 1, kind: 'blocks' },
  ]) {
    const res = await t.request('POST', '/task-relations', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.headers.get('x-api-preview'), 'true');
  }
  assert.equal((await liveRelations()).length, before);
  const patch = await t.request('PATCH', '/task-relations/1', { body: { task_id: a } });
  assert.equal(patch.status, 404);
});

test("INVALID_TASK for absent, deleted, another tenant's tasks; 404 for another tenant's relation", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const a = await insertTask('Mine');
  const deleted = await insertTask('Deleted', { deleted: true });
  const foreignA = await insertTask('Theirs A', { companyId: other.companyId });
  const foreignB = await insertTask('Theirs B', { companyId: other.companyId });
  const before = (await liveRelations()).length;
  for (const [body, field] of [
    [{ task_id: a, depends_on_id: foreignA }, 'depends_on_id'],
    [{ task_id: foreignA, depends_on_id: a }, 'task_id'],
    [{ task_id: a, depends_on_id: deleted }, 'depends_on_id'],
    [{ task_id: 999999, depends_on_id: a }, 'task_id'],
  ] as const) {
    const res = await t.request('POST', '/task-relations', { body });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'INVALID_TASK');
    assert.equal(res.body.error.details.field, field);
  }
  assert.equal((await liveRelations()).length, before);
  const theirs = await t.request('POST', '/task-relations', {
    tenant: other,
    body: { task_id: foreignA, depends_on_id: foreignB },
  });
  assert.equal(theirs.status, 201);
  for (const method of ['GET', 'DELETE']) {
    const res = await t.request(method, `/task-relations/${theirs.body.data.id}`);
    assert.equal(res.status, 404, method);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual((await t.request('GET', `/task-relations?task_id=${foreignA}`)).body.data, []);
  assert.equal(
    (
      await t.db.db
        .selectFrom('task_relations')
        .select('deleted_at')
        .where('id', '=', theirs.body.data.id)
        .executeTakeFirstOrThrow()
    ).deleted_at,
    null,
  );
});

test('409 TASK_RELATION_EXISTS for a duplicate and 409 TASK_RELATION_CYCLE for a loop, direct or indirect', async () => {
  const a = await insertTask('A');
  const b = await insertTask('B');
  const c = await insertTask('C');
  const first = await relate(b, a);
  await relate(c, b);
  const dup = await t.request('POST', '/task-relations', { body: { task_id: b, depends_on_id: a } });
  assert.equal(dup.status, 409);
  assert.equal(dup.body.error.code, 'TASK_RELATION_EXISTS');
  assert.deepEqual(dup.body.error.details, { task_relation_id: first });
  assert.equal(dup.headers.get('x-api-preview'), 'true');
  for (const [task, dependsOn] of [
    [a, b],
    [a, c],
  ]) {
    const cycle = await t.request('POST', '/task-relations', { body: { task_id: task, depends_on_id: dependsOn } });
    assert.equal(cycle.status, 409, cycle.text);
    assert.equal(cycle.body.error.code, 'TASK_RELATION_CYCLE');
    assert.deepEqual(cycle.body.error.details, { task_id: task, depends_on_id: dependsOn });
  }
  const count = await t.db.db
    .selectFrom('task_relations')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('task_id', '=', a)
    .executeTakeFirstOrThrow();
  assert.equal(count.n, 0);
  assert.equal((await t.request('DELETE', `/task-relations/${first}`)).status, 204);
  assert.equal(
    (await t.request('POST', '/task-relations', { body: { task_id: a, depends_on_id: c } })).status,
    201,
    'a removed link no longer closes the loop',
  );
});

test('visibility: a member sees and writes relations only between tasks they see', async () => {
  const seen = await insertTask('Seen via client', { clientId: visibleClient });
  const assigned = await insertTask('Seen via assignment', {
    clientId: hiddenClient,
    assignee: t.tenant.memberPersonId,
  });
  const hidden = await insertTask('Hidden', { clientId: hiddenClient });
  const visibleRel = await relate(seen, assigned);
  const hiddenRel = await relate(seen, hidden);
  const list = async (key: string) =>
    (await t.request('GET', `/task-relations?task_id=${seen}`, { key })).body.data.map((r: { id: number }) => r.id);
  assert.deepEqual(await list('personal'), [visibleRel]);
  assert.deepEqual(await list('personalAdmin'), [visibleRel, hiddenRel]);
  for (const method of ['GET', 'DELETE']) {
    assert.equal((await t.request(method, `/task-relations/${hiddenRel}`, { key: 'personal' })).status, 404, method);
  }
  const create = await t.request('POST', '/task-relations', {
    key: 'personal',
    body: { task_id: assigned, depends_on_id: hidden },
  });
  assert.equal(create.status, 400);
  assert.equal(create.body.error.code, 'INVALID_TASK');
  assert.equal(create.body.error.details.field, 'depends_on_id');
  const own = await t.request('POST', '/task-relations', {
    key: 'personal',
    body: { task_id: assigned, depends_on_id: seen },
  });
  assert.equal(own.status, 409, 'seen → assigned exists, so assigned → seen is a cycle');
  assert.equal((await t.request('DELETE', `/task-relations/${visibleRel}`, { key: 'personal' })).status, 204);
  assert.equal((await t.request('GET', `/task-relations/${hiddenRel}`, { key: 'personalAdmin' })).status, 200);
});

test('a relation whose task was deleted disappears from reads; the read key may read but not write', async () => {
  const a = await insertTask('Stays');
  const b = await insertTask('Goes');
  const id = await relate(a, b);
  assert.equal((await t.request('GET', `/task-relations/${id}`, { key: 'read' })).status, 200);
  for (const [method, path, body] of [
    ['POST', '/task-relations', { task_id: b, depends_on_id: a }],
    ['DELETE', `/task-relations/${id}`, undefined],
  ] as const) {
    const res = await t.request(method, path, { key: 'read', body });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  }
  await t.db.db.updateTable('tasks').set({ deleted_at: new Date().toISOString() }).where('id', '=', b).execute();
  assert.equal((await t.request('GET', `/task-relations/${id}`)).status, 404);
  assert.deepEqual((await t.request('GET', `/task-relations?task_id=${a}`)).body.data, []);
});
