import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import {
  createClient,
  createTask,
  insertProject,
  insertWorkflowRole,
  storedAssignees,
  storedTask,
  TASK_FIELDS,
  taskEvents,
} from './fixtures.ts';

const t = await createTestApp();
// custom_fields values are checked against the company's definitions (issue 12).
await t.request('POST', '/custom-fields', { body: { name: 'priority', field_type: 'text', entity_type: 'task' } });
const other = await t.newTenant();

const countTasks = async () =>
  Number(
    (
      await t.db.db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('company_id', '=', t.tenant.companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

test('create with defaults, read, update and delete a task', async () => {
  const created = await t.request('POST', '/tasks', { key: 'write', body: { title: 'Write the report' } });
  assert.equal(created.status, 201, created.text);
  const task = created.body.data;
  assert.deepEqual(Object.keys(task).sort(), TASK_FIELDS);
  assert.deepEqual(
    { ...task, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      client_id: null,
      project_id: null,
      topic_id: null,
      project_status_from: null,
      title: 'Write the report',
      description: '',
      status: 'new',
      type: 'task',
      is_important: false,
      is_extra: false,
      is_recurring: 0,
      date: null,
      due_date: null,
      finished_at: null,
      has_due_date: 0,
      estimation: null,
      timezone: 'UTC',
      tracked_time: 0,
      assignees: [],
      workflow_role_ids: [],
      checklist: null,
      recurrence_rule: null,
      recurrence_parent_id: null,
      recurrence_date: null,
      custom_fields: null,
      created_at: '',
      updated_at: '',
      comments: [],
      comments_truncated: false,
    },
  );
  assert.match(task.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(created.headers.get('etag'), `"${task.updated_at}"`);
  const row = await storedTask(t, task.id);
  assert.equal(row.title, 'Write the report');
  assert.equal(row.status, 'new');
  assert.equal(row.deleted_at, null);

  const read = await t.request('GET', `/tasks/${task.id}`, { key: 'read' });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.data, task);

  const patched = await t.request('PATCH', `/tasks/${task.id}`, {
    key: 'write',
    body: { title: 'Write the final report', description: 'Two pages', is_important: true },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.title, 'Write the final report');
  assert.equal(patched.body.data.description, 'Two pages');
  assert.equal(patched.body.data.is_important, true);
  assert.equal(patched.body.data.created_at, task.created_at);
  assert.ok(patched.body.data.updated_at > task.updated_at);
  const afterPatch = await storedTask(t, task.id);
  assert.equal(afterPatch.title, 'Write the final report');
  assert.equal(afterPatch.is_important, true);

  const unchanged = await t.request('PATCH', `/tasks/${task.id}`, { body: {} });
  assert.equal(unchanged.status, 200);
  assert.deepEqual(unchanged.body.data, patched.body.data);

  const deleted = await t.request('DELETE', `/tasks/${task.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  assert.notEqual((await storedTask(t, task.id)).deleted_at, null);
  const gone = await t.request('GET', `/tasks/${task.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('PATCH', `/tasks/${task.id}`, { body: { title: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/tasks/${task.id}`)).status, 404);
});

test('every writable field is stored and returned', async () => {
  const clientId = await createClient(t);
  const projectId = await insertProject(t, clientId);
  const topic = await t.request('POST', '/topics', { body: { name: 'Support' } });
  assert.equal(topic.status, 201, topic.text);
  const roleId = await insertWorkflowRole(t);
  const task = await createTask(t, {
    title: 'Full',
    description: 'All fields',
    status: 'in_progress',
    type: 'request',
    client_id: clientId,
    project_id: projectId,
    topic_id: topic.body.data.id,
    is_important: true,
    is_extra: 1,
    date: '2026-05-01T09:00:00+03:00',
    due_date: '2026-05-03T17:00:00Z',
    has_due_date: false,
    estimation: 7200,
    timezone: 'Europe/Tallinn',
    assignees: [t.tenant.ownerPersonId, t.tenant.memberPersonId],
    workflow_role_ids: [roleId],
    fields: { priority: 'high' },
  });
  assert.equal(task.description, 'All fields');
  assert.equal(task.status, 'in_progress');
  assert.equal(task.type, 'request');
  assert.equal(task.client_id, clientId);
  assert.equal(task.project_id, projectId);
  assert.equal(task.topic_id, topic.body.data.id);
  assert.equal(task.is_important, true);
  assert.equal(task.is_extra, true);
  assert.equal(task.date, '2026-05-01T06:00:00.000Z');
  assert.equal(task.due_date, '2026-05-03T17:00:00.000Z');
  assert.equal(task.has_due_date, 0, 'an explicit has_due_date wins over the due_date default');
  assert.equal(task.estimation, 7200);
  assert.equal(task.timezone, 'Europe/Tallinn');
  assert.deepEqual(
    task.assignees,
    [t.tenant.ownerPersonId, t.tenant.memberPersonId].sort((a, b) => a - b),
  );
  assert.deepEqual(task.workflow_role_ids, [roleId]);
  assert.deepEqual(task.custom_fields, { priority: 'high' });
  const row = await storedTask(t, task.id);
  assert.equal(row.is_extra, true);
  assert.deepEqual(row.workflow_role_ids, [roleId]);
  assert.deepEqual(row.custom_fields, { priority: 'high' });
  assert.deepEqual(await storedAssignees(t, task.id), task.assignees);

  const withDue = await createTask(t, { due_date: '2026-06-01T00:00:00Z' });
  assert.equal(withDue.has_due_date, 1, 'has_due_date follows due_date when not sent');
  const cleared = await t.request('PATCH', `/tasks/${withDue.id}`, {
    body: { due_date: null, description: null, custom_fields: null, estimation: null },
  });
  assert.equal(cleared.status, 200, cleared.text);
  assert.equal(cleared.body.data.due_date, null);
  assert.equal(cleared.body.data.has_due_date, 0);
  assert.equal(cleared.body.data.description, '');
  assert.equal(cleared.body.data.custom_fields, null);
});

test('assignee aliases, whole-list replacement on PATCH, and alias conflicts', async () => {
  const task = await createTask(t, { assignee_ids: [t.tenant.memberPersonId] });
  assert.deepEqual(task.assignees, [t.tenant.memberPersonId]);
  const replaced = await t.request('PATCH', `/tasks/${task.id}`, { body: { assignees_ids: [t.tenant.ownerPersonId] } });
  assert.equal(replaced.status, 200, replaced.text);
  assert.deepEqual(replaced.body.data.assignees, [t.tenant.ownerPersonId]);
  assert.deepEqual(await storedAssignees(t, task.id), [t.tenant.ownerPersonId]);
  const emptied = await t.request('PATCH', `/tasks/${task.id}`, { body: { assignees: [] } });
  assert.deepEqual(emptied.body.data.assignees, []);
  assert.deepEqual(await storedAssignees(t, task.id), []);
  const untouched = await t.request('PATCH', `/tasks/${task.id}`, { body: { title: 'Renamed' } });
  assert.deepEqual(untouched.body.data.assignees, []);

  const both = await t.request('POST', '/tasks', {
    body: { title: 'x', assignees: [t.tenant.ownerPersonId], assignee_ids: [t.tenant.ownerPersonId] },
  });
  assert.equal(both.status, 400);
  assert.equal(both.body.error.code, 'VALIDATION_ERROR');
  assert.equal(both.body.error.details.reason, 'DUPLICATE_ALIAS');
  const bothFields = await t.request('PATCH', `/tasks/${task.id}`, {
    body: { custom_fields: { a: 1 }, fields: { a: 2 } },
  });
  assert.equal(bothFields.status, 400);
  assert.equal(bothFields.body.error.details.reason, 'DUPLICATE_ALIAS');
  const repeated = await t.request('PATCH', `/tasks/${task.id}`, {
    body: { assignees: [t.tenant.ownerPersonId, t.tenant.ownerPersonId] },
  });
  assert.equal(repeated.status, 400);
  assert.equal(repeated.body.error.code, 'VALIDATION_ERROR');
});

test('bad inputs are refused with 400 and nothing is written', async () => {
  const before = await countTasks();
  const task = await createTask(t, { title: 'Target' });
  const bad: Array<[string, Record<string, unknown>]> = [
    ['empty title', { title: '' }],
    ['256-character title', { title: 'x'.repeat(256) }],
    ['missing title', { description: 'no title' }],
    ['unknown status', { title: 'x', status: 'done' }],
    ['unknown type', { title: 'x', type: 'timer' }],
    ['unknown field', { title: 'x', colour: 'red' }],
    ['non-boolean flag', { title: 'x', is_important: 'yes' }],
    ['date without offset', { title: 'x', date: '2026-05-01T09:00:00' }],
    ['negative estimation', { title: 'x', estimation: -1 }],
    ['non-integer assignee', { title: 'x', assignees: ['2'] }],
    ['string client id', { title: 'x', client_id: '1' }],
  ];
  for (const [what, body] of bad) {
    const res = await t.request('POST', '/tasks', { body });
    assert.equal(res.status, 400, `${what}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', what);
  }
  for (const [what, body] of bad.filter(([what]) => what !== 'missing title')) {
    const res = await t.request('PATCH', `/tasks/${task.id}`, { body });
    assert.equal(res.status, 400, `PATCH ${what}: ${res.text}`);
  }
  const zone = await t.request('POST', '/tasks', { body: { title: 'x', timezone: 'Mars/Olympus' } });
  assert.equal(zone.status, 400);
  assert.equal(zone.body.error.details.reason, 'INVALID_TIMEZONE');
  assert.equal(await countTasks(), before + 1);
  assert.equal((await createTask(t, { title: 'y'.repeat(255) })).title.length, 255);
  assert.equal((await t.request('GET', '/tasks/abc')).status, 400);
});

test('references to other tenants, deleted or absent records are refused', async () => {
  const before = await countTasks();
  const foreignClient = await createClient(t, {}, other);
  const foreignProject = await insertProject(t, null, other);
  const foreignTopic = await t.request('POST', '/topics', { body: { name: 'Theirs' }, tenant: other });
  const foreignRole = await insertWorkflowRole(t, other);
  const deletedClient = await createClient(t);
  await t.request('DELETE', `/clients/${deletedClient}`);
  const cases: Array<[Record<string, unknown>, string, string?]> = [
    [{ client_id: foreignClient }, 'INVALID_CLIENT'],
    [{ client_id: deletedClient }, 'INVALID_CLIENT'],
    [{ project_id: foreignProject }, 'INVALID_PROJECT'],
    [{ project_id: 999999 }, 'INVALID_PROJECT'],
    [{ assignees: [other.ownerPersonId] }, 'INVALID_PERSON'],
    [{ assignee_ids: [999999] }, 'INVALID_PERSON'],
    [{ assignees_ids: [t.tenant.ownerPersonId, other.memberPersonId] }, 'INVALID_PERSON'],
    [{ topic_id: foreignTopic.body.data.id }, 'VALIDATION_ERROR', 'INVALID_TOPIC'],
    [{ workflow_role_ids: [foreignRole] }, 'VALIDATION_ERROR', 'INVALID_WORKFLOW_ROLE'],
  ];
  const task = await createTask(t);
  for (const [body, code, reason] of cases) {
    for (const [method, path] of [
      ['POST', '/tasks'],
      ['PATCH', `/tasks/${task.id}`],
    ] as const) {
      const res = await t.request(method, path, { body: { title: 'Ref', ...body } });
      assert.equal(res.status, 400, `${method} ${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.error.code, code);
      if (reason) assert.equal(res.body.error.details.reason, reason);
    }
  }
  assert.equal(await countTasks(), before + 1);
  assert.equal((await storedTask(t, task.id)).title, 'Task');
});

test('a task of a project that has a client belongs to that client', async () => {
  const clientA = await createClient(t, { name: 'A' });
  const clientB = await createClient(t, { name: 'B' });
  const projectA = await insertProject(t, clientA);
  const loose = await insertProject(t, null);
  const inherited = await createTask(t, { project_id: projectA });
  assert.equal(inherited.client_id, clientA);
  const mismatch = await t.request('POST', '/tasks', {
    body: { title: 'x', project_id: projectA, client_id: clientB },
  });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.body.error.code, 'INVALID_PROJECT');
  assert.equal(mismatch.body.error.details.reason, 'CLIENT_PROJECT_MISMATCH');
  const moveAway = await t.request('PATCH', `/tasks/${inherited.id}`, { body: { client_id: clientB } });
  assert.equal(moveAway.status, 400);
  assert.equal(moveAway.body.error.code, 'INVALID_CLIENT');
  const withBoth = await t.request('PATCH', `/tasks/${inherited.id}`, {
    body: { client_id: clientB, project_id: loose },
  });
  assert.equal(withBoth.status, 200, withBoth.text);
  assert.equal(withBoth.body.data.client_id, clientB);
  const moved = await t.request('PATCH', `/tasks/${inherited.id}`, { body: { project_id: projectA } });
  assert.equal(moved.body.data.client_id, clientA, "moving a task into a project takes the project's client");
});

test("another tenant's task id answers 404 on every task route", async () => {
  const theirs = await createTask(t, {}, { tenant: other });
  const routes: Array<[string, string, unknown?]> = [
    ['GET', `/tasks/${theirs.id}`],
    ['PATCH', `/tasks/${theirs.id}`, { title: 'x' }],
    ['DELETE', `/tasks/${theirs.id}`],
    ['POST', `/tasks/${theirs.id}/complete`],
    ['POST', `/tasks/${theirs.id}/reopen`],
    ['PUT', `/tasks/${theirs.id}/checklist`, { items: [] }],
    ['POST', `/tasks/${theirs.id}/comments`, { body: 'hi' }],
  ];
  for (const [method, path, body] of routes) {
    const res = await t.request(method, path, { body });
    assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  for (const [method, path] of [
    ['PATCH', `/tasks/${theirs.id}`],
    ['PUT', `/tasks/${theirs.id}/checklist`],
    ['POST', `/tasks/${theirs.id}/comments`],
  ]) {
    const res = await t.request(method!, path!, { body: { nonsense: true } });
    assert.equal(res.status, 404, `the path's task is checked before the body: ${method} ${path}: ${res.text}`);
  }
  const mine = await createTask(t);
  assert.equal((await t.request('PUT', `/tasks/${mine.id}/checklist`, { body: { nonsense: true } })).status, 400);
  const row = await t.db.db
    .selectFrom('tasks')
    .select(['title', 'deleted_at'])
    .where('company_id', '=', other.companyId)
    .where('id', '=', theirs.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { title: 'Task', deleted_at: null });
});

test('creates, updates (status, assignees, dates) and deletes record task events in the outbox', async () => {
  const task = await createTask(t, { title: 'Evented' });
  const created = await taskEvents(t, task.id);
  assert.equal(created.length, 1);
  assert.equal(created[0]!.event, 'task.created');
  assert.equal(created[0]!.api_key_id, t.tenant.keyIds.admin);
  const { comments: _c, comments_truncated: _ct, ...lean } = task;
  assert.deepEqual(created[0]!.data, lean);
  for (const body of [
    { status: 'in_progress' },
    { assignees: [t.tenant.memberPersonId] },
    { date: '2026-07-01T08:00:00Z' },
    { due_date: '2026-07-02T08:00:00Z' },
  ]) {
    assert.equal((await t.request('PATCH', `/tasks/${task.id}`, { body })).status, 200);
  }
  const updates = (await taskEvents(t, task.id)).filter((e) => e.event === 'task.updated');
  assert.equal(updates.length, 4);
  assert.equal((updates[0]!.data as { status: string }).status, 'in_progress');
  assert.deepEqual((updates[1]!.data as { assignees: number[] }).assignees, [t.tenant.memberPersonId]);
  assert.equal((updates[2]!.data as { date: string }).date, '2026-07-01T08:00:00.000Z');
  assert.equal((await t.request('DELETE', `/tasks/${task.id}`)).status, 204);
  const last = (await taskEvents(t, task.id)).at(-1)!;
  assert.equal(last.event, 'task.deleted');
  assert.deepEqual(last.data, { id: task.id });
  const refused = await t.request('POST', '/tasks', { body: { title: '' } });
  assert.equal(refused.status, 400);
  assert.equal((await taskEvents(t, task.id)).length, 6);
});

test('POST /tasks is idempotent with an Idempotency-Key', async () => {
  const before = await countTasks();
  const headers = { 'idempotency-key': 'task-create-1' };
  const first = await t.request('POST', '/tasks', { body: { title: 'Once' }, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/tasks', { body: { title: 'Once' }, headers });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(again.body, first.body);
  assert.equal(await countTasks(), before + 1);
  assert.equal((await taskEvents(t, first.body.data.id)).length, 1);
  const reused = await t.request('POST', '/tasks', { body: { title: 'Other' }, headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});

test('a read key can read but not write', async () => {
  const refused = await t.request('POST', '/tasks', { key: 'read', body: { title: 'x' } });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'FORBIDDEN');
  assert.equal((await t.request('GET', '/tasks', { key: 'read' })).status, 200);
});
