import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { createClient, createTask, insertTimeEntry, storedTask, taskEvents } from './fixtures.ts';

const t = await createTestApp();

const post = (path: string, key = 'write') => t.request('POST', path, { key });

test('complete finishes a task and reopen restores its prior open status', async () => {
  const task = await createTask(t, { status: 'in_progress' });
  const completed = await post(`/tasks/${task.id}/complete`);
  assert.equal(completed.status, 200, completed.text);
  assert.equal(completed.body.data.status, 'finished');
  assert.match(completed.body.data.finished_at, /Z$/);
  assert.ok(completed.body.data.updated_at > task.updated_at);
  const row = await storedTask(t, task.id);
  assert.equal(row.status, 'finished');
  assert.equal(row.reopen_status, 'in_progress');
  assert.equal(row.finished_at, completed.body.data.finished_at);

  const again = await post(`/tasks/${task.id}/complete`);
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, 'INVALID_STATUS_TRANSITION');
  assert.equal(again.body.error.details.status, 'finished');
  assert.equal(
    (await storedTask(t, task.id)).finished_at,
    completed.body.data.finished_at,
    'a refused complete changes nothing',
  );

  const reopened = await post(`/tasks/${task.id}/reopen`);
  assert.equal(reopened.status, 200, reopened.text);
  assert.equal(reopened.body.data.status, 'in_progress');
  assert.equal(reopened.body.data.finished_at, null);
  const afterReopen = await storedTask(t, task.id);
  assert.equal(afterReopen.reopen_status, null);
  assert.equal(afterReopen.finished_at, null);

  const notFinished = await post(`/tasks/${task.id}/reopen`);
  assert.equal(notFinished.status, 409);
  assert.equal(notFinished.body.error.code, 'INVALID_STATUS_TRANSITION');
  const events = (await taskEvents(t, task.id)).map((e) => e.event);
  assert.deepEqual(events, ['task.created', 'task.updated', 'task.updated']);
  assert.equal(((await taskEvents(t, task.id))[1]!.data as { status: string }).status, 'finished');
});

test('complete from new and inactive reopens as new; archived cannot be completed', async () => {
  for (const status of ['new', 'inactive']) {
    const task = await createTask(t, { status });
    assert.equal((await post(`/tasks/${task.id}/complete`)).body.data.status, 'finished');
    assert.equal((await post(`/tasks/${task.id}/reopen`)).body.data.status, 'new');
  }
  const archived = await createTask(t, { status: 'archived' });
  const refused = await post(`/tasks/${archived.id}/complete`);
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'INVALID_STATUS_TRANSITION');
  assert.equal((await storedTask(t, archived.id)).status, 'archived');
  const finishedOnCreate = await createTask(t, { status: 'finished' });
  assert.match(finishedOnCreate.finished_at, /Z$/);
  assert.equal((await post(`/tasks/${finishedOnCreate.id}/reopen`)).body.data.status, 'new');
});

test('PATCH status follows the same finished_at rules', async () => {
  const task = await createTask(t, { status: 'in_progress' });
  const finished = await t.request('PATCH', `/tasks/${task.id}`, { body: { status: 'finished' } });
  assert.equal(finished.body.data.status, 'finished');
  assert.notEqual(finished.body.data.finished_at, null);
  assert.equal((await storedTask(t, task.id)).reopen_status, 'in_progress');
  const same = await t.request('PATCH', `/tasks/${task.id}`, { body: { status: 'finished' } });
  assert.equal(same.body.data.finished_at, finished.body.data.finished_at, 're-sending the status keeps finished_at');
  const back = await t.request('PATCH', `/tasks/${task.id}`, { body: { status: 'archived' } });
  assert.equal(back.body.data.status, 'archived');
  assert.equal(back.body.data.finished_at, null);
  assert.equal((await storedTask(t, task.id)).reopen_status, null);
});

test('PUT checklist replaces the whole list and keeps item ids', async () => {
  const task = await createTask(t);
  const first = await t.request('PUT', `/tasks/${task.id}/checklist`, {
    body: {
      items: [
        { text: 'Draft', done: true },
        { text: 'Review', done: false },
      ],
    },
  });
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.body.data.checklist, {
    items: [
      { id: 1, text: 'Draft', done: true },
      { id: 2, text: 'Review', done: false },
    ],
  });
  const second = await t.request('PUT', `/tasks/${task.id}/checklist`, {
    body: {
      items: [
        { id: 2, text: 'Review again', done: true },
        { text: 'Send', done: false },
      ],
    },
  });
  assert.equal(second.status, 200, second.text);
  assert.deepEqual(second.body.data.checklist.items, [
    { id: 2, text: 'Review again', done: true },
    { id: 3, text: 'Send', done: false },
  ]);
  assert.deepEqual((await storedTask(t, task.id)).checklist, second.body.data.checklist);
  const readBack = await t.request('GET', `/tasks/${task.id}`);
  assert.deepEqual(readBack.body.data.checklist, second.body.data.checklist);
  const emptied = await t.request('PUT', `/tasks/${task.id}/checklist`, { body: { items: [] } });
  assert.deepEqual(emptied.body.data.checklist, { items: [] });
  assert.equal((await taskEvents(t, task.id)).filter((e) => e.event === 'task.updated').length, 3);
  const full = await t.request('PUT', `/tasks/${task.id}/checklist`, {
    body: { items: Array.from({ length: 200 }, (_, i) => ({ text: `Item ${i}`, done: false })) },
  });
  assert.equal(full.status, 200);
  assert.equal(full.body.data.checklist.items.length, 200);
});

test('bad checklist bodies are refused', async () => {
  const task = await createTask(t);
  const bad: unknown[] = [
    {},
    { items: 'x' },
    { items: [{ text: '', done: false }] },
    { items: [{ text: 'x'.repeat(501), done: false }] },
    { items: [{ text: 'a' }] },
    { items: [{ text: 'a', done: 'yes' }] },
    { items: [{ text: 'a', done: true, colour: 'red' }] },
    { items: [{ id: 0, text: 'a', done: true }] },
    { items: Array.from({ length: 201 }, () => ({ text: 'a', done: false })) },
    { items: [], extra: 1 },
  ];
  for (const body of bad) {
    const res = await t.request('PUT', `/tasks/${task.id}/checklist`, { body });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const duplicate = await t.request('PUT', `/tasks/${task.id}/checklist`, {
    body: {
      items: [
        { id: 4, text: 'a', done: true },
        { id: 4, text: 'b', done: true },
      ],
    },
  });
  assert.equal(duplicate.status, 400);
  assert.equal(duplicate.body.error.details.reason, 'DUPLICATE_CHECKLIST_ITEM_ID');
  assert.equal((await storedTask(t, task.id)).checklist, null);
});

test("comments: the author is the key's person, the newest 20 are inlined oldest first", async () => {
  const task = await createTask(t);
  const first = await t.request('POST', `/tasks/${task.id}/comments`, { key: 'write', body: { body: 'First!' } });
  assert.equal(first.status, 201, first.text);
  const comment = first.body.data;
  assert.deepEqual(Object.keys(comment).sort(), ['body', 'created_at', 'id', 'person_id', 'task_id', 'updated_at']);
  assert.equal(comment.task_id, task.id);
  assert.equal(comment.person_id, t.tenant.ownerPersonId);
  assert.equal(comment.body, 'First!');
  const stored = await t.db.db
    .selectFrom('task_comments')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', comment.id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.body, 'First!');
  assert.equal(stored.person_id, t.tenant.ownerPersonId);

  let read = await t.request('GET', `/tasks/${task.id}`);
  assert.deepEqual(read.body.data.comments, [comment]);
  assert.equal(read.body.data.comments_truncated, false);
  for (let i = 2; i <= 21; i++)
    assert.equal(
      (await t.request('POST', `/tasks/${task.id}/comments`, { body: { body: `Comment ${i}` } })).status,
      201,
    );
  read = await t.request('GET', `/tasks/${task.id}`);
  assert.equal(read.body.data.comments.length, 20);
  assert.equal(read.body.data.comments_truncated, true);
  assert.equal(read.body.data.comments[0].body, 'Comment 2');
  assert.equal(read.body.data.comments[19].body, 'Comment 21');
  const listed = await t.request('GET', `/tasks?q=Task&sort=-id&limit=1`);
  assert.equal(listed.body.data[0].comments_truncated, true);
  assert.deepEqual(
    (await taskEvents(t, task.id)).map((e) => e.event),
    ['task.created'],
    'comments fire no task event',
  );

  const member = await createTask(t, { title: 'Member task', assignees: [t.tenant.memberPersonId] });
  const byMember = await t.request('POST', `/tasks/${member.id}/comments`, {
    key: 'personal',
    body: { body: 'On it' },
  });
  assert.equal(byMember.status, 201);
  assert.equal(byMember.body.data.person_id, t.tenant.memberPersonId);
});

test('bad comment bodies are refused; comments accept an Idempotency-Key', async () => {
  const task = await createTask(t);
  for (const body of [{}, { body: '' }, { body: 'x'.repeat(10_001) }, { body: 5 }, { body: 'a', extra: true }]) {
    const res = await t.request('POST', `/tasks/${task.id}/comments`, { body });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  assert.equal(
    (await t.request('POST', `/tasks/${task.id}/comments`, { body: { body: 'x'.repeat(10_000) } })).status,
    201,
  );
  const headers = { 'idempotency-key': 'comment-1' };
  const once = await t.request('POST', `/tasks/${task.id}/comments`, { body: { body: 'Once' }, headers });
  const twice = await t.request('POST', `/tasks/${task.id}/comments`, { body: { body: 'Once' }, headers });
  assert.equal(twice.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(twice.body, once.body);
  const count = await t.db.db
    .selectFrom('task_comments')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .where('task_id', '=', task.id)
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 2);
  assert.equal(
    (await t.request('POST', `/tasks/${task.id}/comments`, { key: 'read', body: { body: 'x' } })).status,
    403,
  );
});

test("tracked_time sums the task's live time entries, a running one up to now", async () => {
  const task = await createTask(t);
  const otherTask = await createTask(t);
  const person = t.tenant.ownerPersonId;
  await insertTimeEntry(t, {
    task_id: task.id,
    person_id: person,
    start: '2026-01-05T09:00:00Z',
    end: '2026-01-05T10:00:00Z',
    duration: 600,
  });
  await insertTimeEntry(t, {
    task_id: task.id,
    person_id: person,
    start: '2026-01-06T09:00:00Z',
    end: '2026-01-06T09:30:00Z',
  });
  await insertTimeEntry(t, {
    task_id: task.id,
    person_id: person,
    start: '2026-01-07T09:00:00Z',
    end: '2026-01-07T17:00:00Z',
    deleted_at: '2026-01-08T00:00:00Z',
  });
  await insertTimeEntry(t, {
    task_id: otherTask.id,
    person_id: person,
    start: '2026-01-07T09:00:00Z',
    end: '2026-01-07T17:00:00Z',
  });
  assert.equal((await t.request('GET', `/tasks/${task.id}`)).body.data.tracked_time, 600 + 1800);
  await insertTimeEntry(t, {
    task_id: task.id,
    person_id: t.tenant.memberPersonId,
    start: new Date(Date.now() - 100_000).toISOString(),
  });
  const running = (await t.request('GET', `/tasks/${task.id}`)).body.data.tracked_time;
  assert.ok(running >= 2400 + 100 && running < 2400 + 160, `running entry counted up to now: ${running}`);
  const listed = await t.request('GET', `/tasks?sort=-id&limit=2`);
  assert.equal(listed.body.data[1].tracked_time >= 2500, true);
  assert.equal(listed.body.data[0].tracked_time, 28_800);
});

test('a plain member can use the operations only on tasks they see', async () => {
  const foreign = await createClient(t, { name: 'Not theirs' });
  const hidden = await createTask(t, { client_id: foreign, status: 'in_progress' });
  const visible = await createTask(t, { client_id: foreign, assignees: [t.tenant.memberPersonId] });
  const operations: Array<[string, string, unknown?]> = [
    ['POST', 'complete'],
    ['POST', 'reopen'],
    ['PUT', 'checklist', { items: [{ text: 'a', done: false }] }],
    ['POST', 'comments', { body: 'hi' }],
  ];
  for (const [method, operation, body] of operations) {
    const res = await t.request(method, `/tasks/${hidden.id}/${operation}`, { key: 'personal', body });
    assert.equal(res.status, 404, `${operation}: ${res.text}`);
  }
  assert.equal((await storedTask(t, hidden.id)).status, 'in_progress');
  assert.equal((await storedTask(t, hidden.id)).checklist, null);
  assert.equal((await t.request('POST', `/tasks/${hidden.id}/complete`, { key: 'personalAdmin' })).status, 200);
  assert.equal((await t.request('POST', `/tasks/${visible.id}/complete`, { key: 'personal' })).status, 200);
  assert.equal((await t.request('POST', `/tasks/${visible.id}/reopen`, { key: 'personal' })).status, 200);
  assert.equal(
    (await t.request('PUT', `/tasks/${visible.id}/checklist`, { key: 'personal', body: { items: [] } })).status,
    200,
  );
});
