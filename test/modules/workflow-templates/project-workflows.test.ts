import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { runJobsOnce } from '../../../src/modules/jobs/index.ts';
import { loadModules } from '../../../src/modules/index.ts';
import {
  addMaster,
  createTemplate,
  events,
  insertClients,
  liveTasks,
  projectType,
  runJob,
  waitForJob,
} from './fixtures.ts';

const t = await createTestApp();
const P = '/project-workflows';

test('a project workflow names a project type; apply makes each client a project holding the tasks', async () => {
  const type = await projectType(t);
  const bad = await t.request('POST', P, { body: { name: 'Audit', project_type_id: 999999 } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'INVALID_PROJECT_TYPE');
  assert.equal((await t.request('POST', P, { body: { name: 'Audit' } })).status, 400, 'project_type_id is required');
  const created = await t.request('POST', P, { body: { name: 'Audit', project_type_id: type }, key: 'write' });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const workflow = created.body.data;
  assert.equal(workflow.project_type_id, type);
  assert.equal(workflow.client_id, undefined);
  assert.equal((await t.request('GET', `/workflow-templates/${workflow.id}`)).status, 404, 'the engines do not mix');
  const url = `${P}/${workflow.id}`;
  const master = await addMaster(t, url, { title: 'Plan the audit', due_in_days: 10 });
  await addMaster(t, url, { title: 'Report' });
  const stored = await t.db.db
    .selectFrom('tasks')
    .select(['template_kind', 'client_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', master.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(stored, { template_kind: 'project_workflow', client_id: null });
  const listed = await t.request('GET', `${url}/tasks`, { key: 'read' });
  assert.equal(listed.body.data.length, 2);

  const clients = await insertClients(t, 2);
  const before = await events(t);
  const job = await runJob(t, `${url}/apply`, { client_ids: clients });
  assert.deepEqual(
    [job.type, job.status, job.total_count, job.processed_count, job.failed_count],
    ['project_workflow_apply', 'finished', 2, 2, 0],
  );
  assert.deepEqual(
    [job.skipped_count, job.skipped_client_ids, job.failed_client_ids],
    [0, [], []],
    'recorded: none skipped, none failed',
  );
  const projects = await t.db.db
    .selectFrom('projects')
    .select(['id', 'client_id', 'name', 'project_type_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('client_id', 'in', clients)
    .orderBy('client_id')
    .execute();
  assert.deepEqual(
    projects.map((p) => [p.client_id, p.name, p.project_type_id]),
    clients.map((c) => [c, 'Audit', type]),
  );
  const tasks = await liveTasks(t, clients);
  assert.equal(tasks.length, 4);
  for (const task of tasks)
    assert.equal(task.project_id, projects.find((p) => p.client_id === task.client_id)!.id, 'tasks sit in the project');
  const fired = (await events(t)).slice(before.length).map((e) => e.event);
  assert.deepEqual([...fired].sort(), [...Array(2).fill('project.created'), ...Array(4).fill('task.created')]);
  const read = await t.request('GET', url, { key: 'read' });
  assert.deepEqual([read.body.data.task_count, read.body.data.applied_client_count], [2, 2]);

  // A later master reaches the projects on push.
  await addMaster(t, url, { title: 'Sign off' });
  const push = await runJob(t, `${url}/push`, {});
  assert.deepEqual(
    [push.type, push.status, push.skipped_count, push.failed_client_ids],
    ['project_workflow_push', 'finished', null, null],
  );
  const signOff = (await liveTasks(t, clients)).filter((x) => x.title === 'Sign off');
  assert.deepEqual(signOff.map((x) => x.project_id).sort(), projects.map((p) => p.id).sort());
});

test('the project-workflow apply job records skipped and failed clients', async () => {
  const workflow = await createTemplate(t, P, { name: 'Payroll project' });
  const url = `${P}/${workflow.id}`;
  await addMaster(t, url);
  const [applied, fresh, doomed] = (await insertClients(t, 3)) as [number, number, number];
  await runJob(t, `${url}/apply`, { client_ids: [applied] });
  const res = await t.request('POST', `${url}/apply`, { body: { client_ids: [applied, fresh, doomed] } });
  assert.equal(res.status, 202, res.text);
  const job = await waitForJob(t, res.body.data.id);
  assert.deepEqual(
    [job.skipped_count, job.skipped_client_ids, job.failed_count, job.failed_client_ids],
    [1, [applied], 0, []],
  );

  // A job queued while all three were clients; one is deleted before it runs.
  const id = (
    await t.db.db
      .insertInto('jobs')
      .values({
        company_id: t.tenant.companyId,
        type: 'project_workflow_apply',
        params: JSON.stringify({ template_id: workflow.id, client_ids: [applied, fresh, doomed] }),
        api_key_id: t.tenant.keyIds.admin,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await t.db.db
    .updateTable('clients')
    .set({ deleted_at: new Date().toISOString() })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', doomed)
    .execute();
  const applications = async () =>
    (
      await t.db.db
        .selectFrom('workflow_applications')
        .select('client_id')
        .where('company_id', '=', t.tenant.companyId)
        .where('template_id', '=', workflow.id)
        .execute()
    ).length;
  const appliedBefore = await applications();
  assert.ok((await runJobsOnce(t.db.db, loadModules().jobs)).includes(id));
  const done = await waitForJob(t, id);
  assert.deepEqual(
    [done.status, done.total_count, done.processed_count, done.failed_count, done.failed_client_ids],
    ['finished', 3, 3, 1, [doomed]],
  );
  assert.deepEqual([done.skipped_count, done.skipped_client_ids], [2, [applied, fresh]]);
  assert.equal(await applications(), appliedBefore, 'nothing applied twice');
});

test('apply with replace tears down the other workflows of the client without events, keeping started work', async () => {
  const first = await createTemplate(t, P, { name: 'Old process' });
  const second = await createTemplate(t, P, { name: 'New process' });
  await addMaster(t, `${P}/${first.id}`, { title: 'Old untouched' });
  await addMaster(t, `${P}/${first.id}`, { title: 'Old started' });
  await addMaster(t, `${P}/${second.id}`, { title: 'New step' });
  const [client, bystander] = (await insertClients(t, 2)) as [number, number];
  await runJob(t, `${P}/${first.id}/apply`, { client_ids: [client, bystander] });
  const started = (await liveTasks(t, [client])).find((x) => x.title === 'Old started')!;
  await t.request('PATCH', `/tasks/${started.id}`, { body: { status: 'in_progress' } });
  const untouched = (await liveTasks(t, [client])).find((x) => x.title === 'Old untouched')!;

  const before = await events(t);
  const job = await runJob(t, `${P}/${second.id}/apply`, { client_ids: [client], replace: true });
  assert.equal(job.status, 'finished');
  assert.deepEqual((await liveTasks(t, [client])).map((x) => x.title).sort(), ['New step', 'Old started']);
  const fired = (await events(t)).slice(before.length);
  assert.deepEqual(
    fired.map((e) => e.event),
    ['project.created', 'task.created'],
    'the teardown fires nothing; only the new work does',
  );
  assert.ok(!fired.some((e) => e.record_id === untouched.id));
  const left = await t.db.db
    .selectFrom('workflow_applications')
    .select(['template_id', 'client_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('client_id', 'in', [client, bystander])
    .orderBy('client_id')
    .orderBy('template_id')
    .execute();
  assert.deepEqual(left, [
    { template_id: second.id, client_id: client },
    { template_id: first.id, client_id: bystander },
  ]);
  assert.equal((await liveTasks(t, [bystander])).length, 2, 'other clients keep their workflows');
});
