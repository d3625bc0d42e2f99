import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { addMaster, createTemplate, events, insertClients, liveTasks, runJob } from './fixtures.ts';

const t = await createTestApp();
const P = '/workflow-templates';

const byTitle = async (clients: number[]) =>
  (await liveTasks(t, clients)).map((task) => `${task.client_id}:${task.title}:${task.status}`).sort();

test('push brings master changes to open instances, adds new masters and drops untouched instances of deleted ones', async () => {
  const template = await createTemplate(t, P, { name: 'Quarterly VAT' });
  const url = `${P}/${template.id}`;
  const keep = await addMaster(t, url, { title: 'Collect invoices' });
  const gone = await addMaster(t, url, { title: 'Old step' });
  const clients = await insertClients(t, 2);
  await runJob(t, `${url}/apply`, { client_ids: clients });
  const [a, b] = clients as [number, number];
  const tasks = await liveTasks(t, clients);
  // One client finished its copy of the kept master; one started the deleted master's copy.
  const finished = tasks.find((x) => x.client_id === a && x.title === 'Collect invoices')!;
  const started = tasks.find((x) => x.client_id === b && x.title === 'Old step')!;
  assert.equal((await t.request('POST', `/tasks/${finished.id}/complete`)).status, 200);
  assert.equal((await t.request('PATCH', `/tasks/${started.id}`, { body: { status: 'in_progress' } })).status, 200);

  const patched = await t.request('PATCH', `${url}/tasks/${keep.id}`, {
    body: { title: 'Collect all invoices', is_important: true },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.title, 'Collect all invoices');
  const before = await events(t);
  const deleted = await t.request('DELETE', `${url}/tasks/${gone.id}`);
  assert.equal(deleted.status, 204);
  assert.equal((await events(t)).length, before.length, 'workflow-template task deletes fire no events');
  await addMaster(t, url, { title: 'File the return' });

  const job = await runJob(t, `${url}/push`, {});
  assert.deepEqual(
    [job.type, job.status, job.total_count, job.processed_count, job.failed_count, job.skipped_count],
    ['workflow_template_push', 'finished', 2, 2, 0, null],
  );
  assert.deepEqual(await byTitle(clients), [
    `${a}:Collect invoices:finished`,
    `${a}:File the return:new`,
    `${b}:Collect all invoices:new`,
    `${b}:File the return:new`,
    `${b}:Old step:in_progress`,
  ]);
  const fired = (await events(t)).slice(before.length).map((e) => e.event);
  assert.deepEqual(
    [...fired].sort(),
    ['task.created', 'task.created', 'task.updated'],
    'the push fires per live task it creates or changes; the instance it drops with its master fires nothing',
  );
  const dropped = await t.db.db
    .selectFrom('tasks')
    .select(['id', 'deleted_at'])
    .where('company_id', '=', t.tenant.companyId)
    .where('client_id', '=', a)
    .where('title', '=', 'Old step')
    .executeTakeFirstOrThrow();
  assert.notEqual(dropped.deleted_at, null, "client a's untouched copy of the deleted master is gone");
  assert.ok(
    !(await events(t, 'task.deleted')).some((e) => e.record_id === dropped.id),
    'no task.deleted for it (workflow-template task deletes fire nothing)',
  );
  const again = await runJob(t, `${url}/push`, { client_ids: [a] });
  assert.deepEqual([again.total_count, again.status], [1, 'finished']);
  assert.equal((await liveTasks(t, clients)).length, 5, 'a repeated push changes nothing');
});

test('a deleted instance is not re-created by push; master-task routes check the template they hang under', async () => {
  const template = await createTemplate(t, P);
  const url = `${P}/${template.id}`;
  const master = await addMaster(t, url);
  const [client] = await insertClients(t, 1);
  await runJob(t, `${url}/apply`, { client_ids: [client] });
  const [task] = await liveTasks(t, [client!]);
  assert.equal((await t.request('DELETE', `/tasks/${task!.id}`)).status, 204);
  await runJob(t, `${url}/push`, {});
  assert.equal((await liveTasks(t, [client!])).length, 0);

  const otherTemplate = await createTemplate(t, P);
  const wrong = `${P}/${otherTemplate.id}/tasks/${master.id}`;
  assert.equal((await t.request('PATCH', wrong, { body: { title: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', wrong)).status, 404);
  assert.equal((await t.request('DELETE', `${url}/tasks/${task!.id}`)).status, 404, 'a live task is no master');
  const empty = await t.request('PATCH', `${url}/tasks/${master.id}`, { body: {} });
  assert.equal(empty.status, 200);
  assert.equal(empty.body.data.updated_at, master.updated_at, 'an empty PATCH changes nothing');
  const bad = await t.request('PATCH', `${url}/tasks/${master.id}`, { body: { due_in_days: -1 } });
  assert.equal(bad.status, 400);
  assert.equal((await t.request('POST', `${P}/2147483000/push`, { body: {} })).status, 404);
  assert.equal((await t.request('POST', `${url}/push`, { body: { client_ids: ['x'] } })).status, 400);
});

test('push for a template never applied finishes with nothing to do; the body may be left out', async () => {
  const template = await createTemplate(t, P);
  const job = await runJob(t, `${P}/${template.id}/push`, {});
  assert.deepEqual([job.status, job.total_count, job.processed_count], ['finished', 0, 0]);
  const bare = await t.request('POST', `${P}/${template.id}/push`, { headers: { 'content-type': 'application/json' } });
  assert.equal(bare.status, 202, bare.text);
  assert.equal(bare.body.data.type, 'workflow_template_push');
});

test("a pushed task's event carries the tracked time GET /tasks/{id} answers, a running entry included", async () => {
  const template = await createTemplate(t, P, { name: 'Payroll' });
  const url = `${P}/${template.id}`;
  const master = await addMaster(t, url, { title: 'Run payroll' });
  const [client] = await insertClients(t, 1);
  await runJob(t, `${url}/apply`, { client_ids: [client] });
  const [task] = await liveTasks(t, [client!]);
  const entry = { company_id: t.tenant.companyId, task_id: task!.id, person_id: t.tenant.ownerPersonId };
  // A closed entry and a running one whose start lies ahead (a clock set wrong): GET /tasks counts it as zero.
  await t.db.db
    .insertInto('time_entries')
    .values([
      { ...entry, start: '2026-01-05T09:00:00Z', end: '2026-01-05T10:00:00Z', duration: 600 },
      { ...entry, start: new Date(Date.now() + 3_600_000).toISOString() },
    ] as never)
    .execute();
  assert.equal(
    (await t.request('PATCH', `${url}/tasks/${master.id}`, { body: { title: 'Run the payroll' } })).status,
    200,
  );
  const before = (await events(t, 'task.updated')).length;
  await runJob(t, `${url}/push`, {});
  const fired = (await events(t, 'task.updated')).slice(before);
  assert.equal(fired.length, 1);
  const shown = await t.request('GET', `/tasks/${task!.id}`);
  assert.equal(shown.body.data.tracked_time, 600);
  const payload = fired[0]!.data as { tracked_time: number; title: string };
  assert.deepEqual([payload.title, payload.tracked_time], ['Run the payroll', shown.body.data.tracked_time]);
});
