import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paramMakers } from '../../support/fixtures.ts';
import {
  auditOf,
  createAutomation,
  createTask,
  DAY,
  db,
  deactivateAll,
  getTask,
  member,
  owner,
  post,
  queueSize,
  runPeriodic,
  runQueue,
  runsOf,
  t,
  tasksTitled,
} from './support.ts';

test('task_created: the rule runs once from the outbox, changes the task and leaves an audit row', async () => {
  const client = await post('/clients', { name: 'Automated client' });
  const rule = await createAutomation({
    trigger: 'task_created',
    client_id: client.id,
    actions: {
      assign_person_id: member,
      set_status: 'in_progress',
      due_date_offset_days: 3,
      checklist_items: ['Collect documents', 'Send welcome mail'],
      follow_up: { title: 'Follow-up call', due_date_offset_days: 7 },
      notify_person_ids: [owner],
    },
  });
  const task = await createTask({ client_id: client.id, assignees: [owner] });
  const untouched = await createTask({ title: 'Other client task' });
  assert.equal(task.status, 'new');
  assert.equal(await queueSize(), 2, 'both task.created events are queued: an active task_created rule exists');

  const result = await runQueue();
  assert.deepEqual(result, { events: 2, runs: 1, failed: 0 });
  const after = await getTask(task.id);
  assert.equal(after.status, 'in_progress');
  assert.deepEqual(after.assignees.sort(), [owner, member].sort());
  const event = await db
    .selectFrom('events')
    .select('occurred_at')
    .where('company_id', '=', t.tenant.companyId)
    .where('event', '=', 'task.created')
    .where('record_id', '=', task.id)
    .executeTakeFirstOrThrow();
  assert.equal(after.due_date, new Date(Date.parse(event.occurred_at) + 3 * DAY).toISOString());
  assert.deepEqual(
    after.checklist.items.map((i: { text: string; done: boolean }) => [i.text, i.done]),
    [
      ['Collect documents', false],
      ['Send welcome mail', false],
    ],
  );
  const [followUp, ...more] = await tasksTitled('Follow-up call');
  assert.equal(more.length, 0);
  assert.equal(followUp!.client_id, client.id);
  assert.equal(followUp!.due_date, new Date(Date.parse(event.occurred_at) + 7 * DAY).toISOString());
  const notes = await db
    .selectFrom('notifications')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', owner)
    .execute();
  assert.equal(notes.length, 1);
  assert.deepEqual(notes[0]!.data, { task_id: task.id, automation_id: rule.id, trigger: 'task_created' });

  const audit = await auditOf(task.id);
  assert.equal(audit.length, 1);
  assert.equal(audit[0]!.action, 'automation');
  assert.equal(audit[0]!.path, `/task-automations/${rule.id}`);
  assert.deepEqual(audit[0]!.fields, [
    'assign_person_id',
    'checklist_items',
    'due_date_offset_days',
    'follow_up',
    'notify_person_ids',
    'set_status',
  ]);
  assert.equal((await auditOf(followUp!.id))[0]?.action, 'created');
  assert.equal((await getTask(untouched.id)).status, 'new', 'a task outside the conditions is left alone');

  // It ran once: the marker is durable, and the automation's own events (update, follow-up) were not queued.
  assert.equal(await queueSize(), 0);
  assert.deepEqual(await runQueue(), { events: 0, runs: 0, failed: 0 });
  const runs = await runsOf(rule.id);
  assert.equal(runs.length, 1);
  assert.equal(runs[0]!.task_id, task.id);
  assert.equal((await tasksTitled('Follow-up call')).length, 1);
  await deactivateAll();
});

test('loops are impossible: rules that undo each other run once per human change', async () => {
  const start = await createAutomation({
    trigger: 'status_changed',
    status: 'in_progress',
    actions: { set_status: 'new', follow_up: { title: 'Loop follow-up' } },
  });
  const back = await createAutomation({
    trigger: 'status_changed',
    status: 'new',
    actions: { set_status: 'in_progress' },
  });
  const created = await createAutomation({
    trigger: 'task_created',
    actions: { follow_up: { title: 'Loop follow-up' } },
  });
  const task = await createTask({ title: 'Ping-pong' });
  await runQueue(); // the task_created rule: one follow-up, whose own creation triggers nothing
  const patched = await t.request('PATCH', `/tasks/${task.id}`, { body: { status: 'in_progress' } });
  assert.equal(patched.status, 200, patched.text);
  for (let round = 0; round < 3; round++) await runQueue();

  assert.equal((await getTask(task.id)).status, 'new', 'the first rule set it back; that change triggered nothing');
  assert.equal((await runsOf(start.id)).length, 1);
  assert.equal((await runsOf(back.id)).length, 0);
  assert.equal((await runsOf(created.id)).length, 1);
  assert.equal((await tasksTitled('Loop follow-up')).length, 2);
  assert.equal(await queueSize(), 0);
  await deactivateAll();
});

test('status_changed fires on a status change only, with the new status as its condition', async () => {
  const task = await createTask({ title: 'Watched' });
  const rule = await createAutomation({
    trigger: 'status_changed',
    status: 'finished',
    actions: { checklist_items: ['Archive the papers'] },
  });
  assert.equal((await t.request('PATCH', `/tasks/${task.id}`, { body: { title: 'Watched, renamed' } })).status, 200);
  assert.equal(await queueSize(), 0, 'no status change, nothing queued');
  assert.equal((await t.request('PATCH', `/tasks/${task.id}`, { body: { status: 'in_progress' } })).status, 200);
  assert.equal((await t.request('POST', `/tasks/${task.id}/complete`)).status, 200);
  assert.equal(await queueSize(), 2);
  assert.deepEqual(await runQueue(), { events: 2, runs: 1, failed: 0 });
  const after = await getTask(task.id);
  assert.equal(after.status, 'finished');
  assert.deepEqual(
    after.checklist.items.map((i: { text: string }) => i.text),
    ['Archive the papers'],
  );
  assert.equal((await runsOf(rule.id)).length, 1);
  await deactivateAll();
});

test('due_date_reached: a periodic scan acts once per task and due date', async () => {
  const now = Date.now();
  const rule = await createAutomation({ trigger: 'due_date_reached', actions: { due_date_offset_days: 1 } });
  const notifyRule = await createAutomation({ trigger: 'due_date_reached', actions: { notify_person_ids: [member] } });
  const due = new Date(now + 3_600_000).toISOString();
  const task = await createTask({ title: 'Due soon', due_date: due });
  const done = await createTask({ title: 'Done already', due_date: due, status: 'finished' });

  assert.deepEqual(await runPeriodic('task-automations-due', new Date(now + 60_000)), {
    events: 0,
    runs: 0,
    failed: 0,
  });
  const later = new Date(now + 2 * 3_600_000);
  const first = await runPeriodic('task-automations-due', later);
  assert.equal(first.runs, 2);
  assert.equal((await getTask(task.id)).due_date, new Date(Date.parse(due) + DAY).toISOString(), 'postponed a day');
  assert.equal((await getTask(done.id)).due_date, due, 'finished tasks are not chased');
  assert.equal((await runPeriodic('task-automations-due', later)).runs, 0, 'the same due date runs once');
  assert.equal((await runsOf(notifyRule.id)).length, 1);

  // The postponed due date is a new due date: reached a day later, both rules act on it once more.
  const nextDay = new Date(now + DAY + 2 * 3_600_000);
  assert.equal((await runPeriodic('task-automations-due', nextDay)).runs, 2);
  assert.equal((await runsOf(rule.id)).length, 2);
  assert.equal((await auditOf(task.id)).length, 4);
  await deactivateAll();
});

test('occurrence_created runs for the occurrences of a recurring series, not for its master', async () => {
  const rule = await createAutomation({ trigger: 'occurrence_created', actions: { assign_person_id: member } });
  const master = await createTask({
    title: 'Daily check',
    recurrence_rule: { rrule: 'FREQ=DAILY;COUNT=2', dtstart: new Date(Date.now() + DAY).toISOString() },
  });
  await runQueue();
  const occurrences = await db
    .selectFrom('tasks')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('recurrence_parent_id', '=', master.id)
    .orderBy('id')
    .execute();
  assert.equal(occurrences.length, 2);
  for (const { id } of occurrences) assert.deepEqual((await getTask(id)).assignees, [member]);
  assert.deepEqual((await getTask(master.id)).assignees, []);
  assert.deepEqual(
    (await runsOf(rule.id)).map((r) => r.task_id),
    occurrences.map((o) => o.id),
  );
  await deactivateAll();
});

test('inactive and deleted rules do not run, and without a live rule task events are not queued', async () => {
  const inactive = await createAutomation({
    trigger: 'task_created',
    actions: { set_status: 'finished' },
    active: false,
  });
  const deleted = await createAutomation({ trigger: 'task_created', actions: { set_status: 'finished' } });
  assert.equal((await t.request('DELETE', `/task-automations/${deleted.id}`)).status, 204);
  const task = await createTask({ title: 'Unruled' });
  assert.equal(await queueSize(), 0);
  await runQueue();
  assert.equal((await getTask(task.id)).status, 'new');
  assert.equal((await runsOf(inactive.id)).length + (await runsOf(deleted.id)).length, 0);
});

test('a failing rule rolls back with its event, which stays queued and is retried; then it runs once', async () => {
  const projectId = (await paramMakers.project_id!(t, t.tenant, {})) as number;
  const rule = await createAutomation({
    trigger: 'task_created',
    project_id: projectId,
    actions: { set_status: 'in_progress', follow_up: { title: 'Project follow-up' } },
  });
  const task = await createTask({ title: 'In project', project_id: projectId });
  // The follow-up needs a live project: remove it under the rule's feet.
  await db.updateTable('projects').set({ deleted_at: new Date().toISOString() }).where('id', '=', projectId).execute();
  assert.deepEqual(await runQueue(), { events: 0, runs: 0, failed: 1 });
  assert.equal((await getTask(task.id)).status, 'new', 'nothing of the failed run stays');
  assert.equal((await runsOf(rule.id)).length, 0);
  const queued = await db.selectFrom('task_automation_queue').select('attempts').executeTakeFirstOrThrow();
  assert.equal(queued.attempts, 1);

  await db.updateTable('projects').set({ deleted_at: null }).where('id', '=', projectId).execute();
  assert.deepEqual(await runQueue(), { events: 1, runs: 1, failed: 0 });
  assert.equal((await getTask(task.id)).status, 'in_progress');
  assert.equal((await tasksTitled('Project follow-up')).length, 1);
  assert.equal(await queueSize(), 0);
  await deactivateAll();
});

test('two runners working the queue at once run each rule once per event', async () => {
  const rule = await createAutomation({
    trigger: 'task_created',
    type: 'request',
    actions: { follow_up: { title: 'Raced follow-up' }, checklist_items: ['Answer the request'] },
  });
  const tasks = [];
  for (let i = 0; i < 5; i++) tasks.push(await createTask({ title: `Request ${i}`, type: 'request' }));
  const [a, b] = await Promise.all([runQueue(), runQueue()]);
  assert.equal(a.runs + b.runs, 5);
  assert.equal(a.failed + b.failed, 0);
  assert.equal((await runsOf(rule.id)).length, 5);
  assert.equal((await tasksTitled('Raced follow-up')).length, 5);
  for (const task of tasks) assert.equal((await getTask(task.id)).checklist.items.length, 1);
  assert.equal(await queueSize(), 0);
  await deactivateAll();
});
