import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { runJobsOnce } from '../../../src/modules/jobs/index.ts';
import { loadModules } from '../../../src/modules/index.ts';
import { addMaster, createTemplate, events, insertClients, liveTasks, runJob, waitForJob } from './fixtures.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const P = '/workflow-templates';

test('a workflow template is created with its template (plan) client, whose client_id lists the master rows', async () => {
  const res = await t.request('POST', P, { body: { name: 'Year-end close', description: 'Steps' }, key: 'write' });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  const template = res.body.data;
  assert.deepEqual(Object.keys(template).sort(), [
    'applied_client_count',
    'client_id',
    'created_at',
    'description',
    'id',
    'name',
    'task_count',
    'updated_at',
  ]);
  assert.deepEqual([template.name, template.description, template.task_count], ['Year-end close', 'Steps', 0]);
  const plan = await t.db.db
    .selectFrom('clients')
    .select(['name', 'type'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', template.client_id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(plan, { name: 'Year-end close', type: 'plan' });

  const master = await addMaster(t, `${P}/${template.id}`, { title: 'Close the books', due_in_days: 5 });
  assert.deepEqual(
    [master.template_id, master.title, master.type, master.due_in_days, master.is_important],
    [template.id, 'Close the books', 'task', 5, false],
  );
  const stored = await t.db.db
    .selectFrom('tasks')
    .select(['template_kind', 'client_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', master.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(stored, { template_kind: 'workflow_template', client_id: template.client_id });

  const all = await t.request('GET', '/tasks?limit=200', { key: 'read' });
  assert.ok(!all.body.data.some((row: { id: number }) => row.id === master.id), 'the task list fences master rows out');
  const byPlan = await t.request('GET', `/tasks?client_id=${template.client_id}`, { key: 'read' });
  assert.deepEqual(
    byPlan.body.data.map((row: { id: number }) => row.id),
    [master.id],
  );
  const masters = await t.request('GET', `${P}/${template.id}/tasks`, { key: 'read' });
  assert.equal(masters.status, 200, masters.text);
  assert.deepEqual(masters.body.meta, { total: 1, limit: 50, offset: 0, has_more: false });
  assert.equal((await t.request('GET', `${P}/${template.id}`, { key: 'read' })).body.data.task_count, 1);
  assert.equal((await events(t)).length, 0, 'templates and master rows are configuration: no events');
});

test('templates list, filter, update and delete; another tenant sees none of them', async () => {
  const a = await createTemplate(t, P, { name: 'Alpha flow' });
  await createTemplate(t, P, { name: 'Beta flow' });
  const listed = await t.request('GET', `${P}?q=alpha&sort=-name`, { key: 'read' });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(
    listed.body.data.map((r: { id: number }) => r.id),
    [a.id],
  );
  const renamed = await t.request('PATCH', `${P}/${a.id}`, { body: { name: 'Alpha 2' } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.data.name, 'Alpha 2');
  const plan = await t.db.db
    .selectFrom('clients')
    .select('name')
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', a.client_id)
    .executeTakeFirstOrThrow();
  assert.equal(plan.name, 'Alpha 2', 'the plan client follows the name');
  assert.equal((await t.request('GET', `${P}/${a.id}`, { tenant: other })).status, 404);
  assert.equal((await t.request('PATCH', `${P}/${a.id}`, { tenant: other, body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('GET', `/project-workflows/${a.id}`)).status, 404, 'the engines do not mix');
  assert.equal((await t.request('GET', P, { tenant: other })).body.data.length, 0);

  const master = await addMaster(t, `${P}/${a.id}`);
  assert.equal((await t.request('DELETE', `${P}/${a.id}`)).status, 204);
  assert.equal((await t.request('GET', `${P}/${a.id}`)).status, 404);
  const rows = await t.db.db
    .selectFrom('tasks')
    .select('deleted_at')
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', master.id)
    .executeTakeFirstOrThrow();
  assert.notEqual(rows.deleted_at, null, 'its master rows go with it');
  assert.equal((await t.request('DELETE', `${P}/${a.id}`)).status, 404);
});

test('master task input is validated: references, types, unknown fields, NUL bytes, huge numbers', async () => {
  const template = await createTemplate(t, P);
  const url = `${P}/${template.id}/tasks`;
  const cases: Array<[unknown, string, string?]> = [
    [{}, 'VALIDATION_ERROR'],
    [{ title: 'x', topic_id: 999999 }, 'VALIDATION_ERROR', 'INVALID_TOPIC'],
    [{ title: 'x', workflow_role_ids: [999999] }, 'VALIDATION_ERROR', 'INVALID_WORKFLOW_ROLE'],
    [{ title: 'x', due_in_days: '3' }, 'VALIDATION_ERROR'],
    [{ title: 'x', due_in_days: 1e12 }, 'VALIDATION_ERROR'],
    [{ title: 'x', estimation: 99999999999 }, 'VALIDATION_ERROR'],
    [{ title: 'x', client_id: 1 }, 'VALIDATION_ERROR'],
    [{ title: 'bad\u0000title' }, 'VALIDATION_ERROR'],
    [{ title: 'x', type: 'button' }, 'VALIDATION_ERROR'],
  ];
  for (const [body, code, reason] of cases) {
    const res = await t.request('POST', url, { body });
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.code, code);
    if (reason) assert.equal(res.body.error.details.reason, reason);
  }
  assert.equal((await t.request('POST', `${P}/2147483000/tasks`, { body: { title: 'x' } })).status, 404);
  assert.equal((await t.request('POST', url, { body: { title: 'x' }, tenant: other })).status, 404);
  const count = await t.db.db
    .selectFrom('workflow_master_tasks')
    .select('task_id')
    .where('company_id', '=', t.tenant.companyId)
    .where('template_id', '=', template.id)
    .execute();
  assert.equal(count.length, 0, 'nothing was stored');
  const huge = await t.request('POST', P, { body: { name: 'x'.repeat(256) } });
  assert.equal(huge.status, 400);
});

test('apply creates each client its tasks once, fires task.created, and a second apply skips applied clients', async () => {
  const template = await createTemplate(t, P, { name: 'Monthly payroll' });
  const url = `${P}/${template.id}`;
  const role = await t.request('POST', '/workflow-roles', { body: { name: 'Accountant' } });
  assert.equal(role.status, 201, role.text);
  const first = await addMaster(t, url, {
    title: 'Gather hours',
    due_in_days: 3,
    workflow_role_ids: [role.body.data.id],
  });
  await addMaster(t, url, { title: 'Run payroll', type: 'request', is_important: true, estimation: 3600 });
  const clients = await insertClients(t, 3);
  const before = (await events(t, 'task.created')).length;

  const job = await runJob(t, `${url}/apply`, { client_ids: clients }, 'write');
  assert.deepEqual(
    [job.type, job.status, job.total_count, job.processed_count, job.failed_count],
    ['workflow_template_apply', 'finished', 3, 3, 0],
  );
  assert.deepEqual(
    [job.skipped_count, job.skipped_client_ids, job.failed_client_ids],
    [null, null, null],
    'only the project-workflow apply job records client lists',
  );
  const tasks = await liveTasks(t, clients);
  assert.equal(tasks.length, 6);
  const gather = tasks.filter((task) => task.title === 'Gather hours');
  assert.deepEqual(gather.map((task) => task.client_id).sort(), [...clients].sort());
  for (const task of gather) {
    assert.deepEqual([task.has_due_date, task.status, task.workflow_role_ids], [1, 'new', [role.body.data.id]]);
    assert.ok(task.due_date! > new Date().toISOString());
  }
  const payroll = tasks.find((task) => task.title === 'Run payroll')!;
  assert.deepEqual(
    [payroll.type, payroll.is_important, payroll.estimation, payroll.has_due_date],
    ['request', true, 3600, 0],
  );
  const created = (await events(t, 'task.created')).slice(before);
  assert.deepEqual(created.map((e) => e.record_id).sort(), tasks.map((task) => task.id).sort());
  const payload = created.find((e) => e.record_id === gather[0]!.id)!.data as Record<string, unknown>;
  assert.deepEqual(
    [payload.title, payload.client_id, payload.assignees, payload.tracked_time, payload.status],
    ['Gather hours', gather[0]!.client_id, [], 0, 'new'],
    'the event carries the lean task record',
  );
  assert.ok(!('comments' in payload));
  const links = await t.db.db
    .selectFrom('workflow_instances')
    .select('master_task_id')
    .where('company_id', '=', t.tenant.companyId)
    .where('task_id', '=', gather[0]!.id)
    .executeTakeFirstOrThrow();
  assert.equal(links.master_task_id, first.id);

  const again = await runJob(t, `${url}/apply`, { client_ids: clients });
  assert.deepEqual([again.status, again.processed_count, again.failed_count], ['finished', 3, 0]);
  assert.equal((await liveTasks(t, clients)).length, 6, 'a second apply does not duplicate');
  assert.equal((await t.request('GET', url)).body.data.applied_client_count, 3);
});

test('apply by filter picks the matching live clients only', async () => {
  const template = await createTemplate(t, P);
  await addMaster(t, `${P}/${template.id}`);
  const [active] = await insertClients(t, 1, { name: 'Filter Zeta active' });
  const [inactive] = await insertClients(t, 1, { name: 'Filter Zeta inactive', status: 'inactive' });
  const group = await t.request('POST', '/client-groups', { body: { name: 'Zeta group' } });
  const job = await runJob(t, `${P}/${template.id}/apply`, { filter: { q: 'Filter Zeta', status: ['active'] } });
  assert.deepEqual([job.total_count, job.processed_count], [1, 1]);
  assert.equal((await liveTasks(t, [active!])).length, 1);
  assert.equal((await liveTasks(t, [inactive!])).length, 0);
  const empty = await runJob(t, `${P}/${template.id}/apply`, { filter: { group_id: group.body.data.id } });
  assert.deepEqual([empty.status, empty.total_count], ['finished', 0]);
});

test('apply refuses a bad selection before queueing anything', async () => {
  const template = await createTemplate(t, P);
  const url = `${P}/${template.id}/apply`;
  const [client] = await insertClients(t, 1);
  const foreign = await t.db.db
    .insertInto('clients')
    .values({ company_id: other.companyId, name: 'Foreign' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const jobsBefore = await t.db.db
    .selectFrom('jobs')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  const cases: Array<[unknown, string, string?]> = [
    [{}, 'VALIDATION_ERROR', 'MISSING_FIELD'],
    [{ client_ids: [client], filter: {} }, 'VALIDATION_ERROR', 'FIELD_NOT_ALLOWED'],
    [{ client_ids: [client, foreign.id] }, 'INVALID_CLIENT'],
    [{ client_ids: [template.client_id] }, 'INVALID_CLIENT'],
    [{ filter: { group_id: 999999 } }, 'VALIDATION_ERROR', 'INVALID_GROUP'],
    [{ client_ids: [] }, 'VALIDATION_ERROR'],
    [{ client_ids: ['1'] }, 'VALIDATION_ERROR'],
    [{ client_ids: [client], replace: 'yes' }, 'VALIDATION_ERROR'],
    [{ filter: { status: ['gone'] } }, 'VALIDATION_ERROR'],
  ];
  for (const [body, code, reason] of cases) {
    const res = await t.request('POST', url, { body });
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.code, code);
    if (reason) assert.equal(res.body.error.details.reason, reason);
  }
  const bad = await t.request('POST', url, { body: { client_ids: [client, foreign.id] } });
  assert.deepEqual(bad.body.error.details.invalid_ids, [foreign.id]);
  assert.equal((await t.request('POST', `${P}/2147483000/apply`, { body: {} })).status, 404);
  const jobsAfter = await t.db.db
    .selectFrom('jobs')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  assert.equal(jobsAfter.length, jobsBefore.length);
});

test('an apply retried with the same Idempotency-Key answers the same job and runs once', async () => {
  const template = await createTemplate(t, P);
  await addMaster(t, `${P}/${template.id}`);
  const [client] = await insertClients(t, 1);
  const send = () =>
    t.request('POST', `${P}/${template.id}/apply`, {
      body: { client_ids: [client] },
      headers: { 'idempotency-key': `apply-${template.id}` },
    });
  const first = await send();
  assert.equal(first.status, 202, first.text);
  const second = await send();
  assert.equal(second.status, 202);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.body.data.id, first.body.data.id);
});

test("a plain member's key applies only to clients it sees; a job whose template was deleted fails", async () => {
  const template = await createTemplate(t, P);
  await addMaster(t, `${P}/${template.id}`);
  const [hidden, mine] = await insertClients(t, 2);
  await t.db.db
    .updateTable('clients')
    .set({ default_person_id: t.tenant.memberPersonId })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', mine!)
    .execute();
  const refused = await t.request('POST', `${P}/${template.id}/apply`, {
    key: 'personal',
    body: { client_ids: [hidden, mine] },
  });
  assert.equal(refused.status, 400, refused.text);
  assert.deepEqual([refused.body.error.code, refused.body.error.details.invalid_ids], ['INVALID_CLIENT', [hidden]]);
  const job = await runJob(t, `${P}/${template.id}/apply`, { filter: {} }, 'personal');
  assert.deepEqual([job.status, job.total_count], ['finished', 1], 'the filter selects only what the member sees');
  assert.equal((await liveTasks(t, [mine!])).length, 1);
  assert.equal((await liveTasks(t, [hidden!])).length, 0);
  const configRefused = await t.request('POST', `${P}/${template.id}/push`, { key: 'personal', body: {} });
  assert.equal(configRefused.status, 403, 'push is company configuration');

  const gone = await createTemplate(t, P);
  const row = await t.db.db
    .insertInto('jobs')
    .values({
      company_id: t.tenant.companyId,
      type: 'workflow_template_apply',
      params: JSON.stringify({ template_id: gone.id, client_ids: [hidden] }),
      api_key_id: t.tenant.keyIds.admin,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  assert.equal((await t.request('DELETE', `${P}/${gone.id}`)).status, 204);
  assert.ok((await runJobsOnce(t.db.db, loadModules().jobs)).includes(row.id));
  const failed = await waitForJob(t, row.id);
  assert.deepEqual([failed.status, failed.error], ['failed', 'the template was deleted while the job ran']);
  assert.equal((await liveTasks(t, [hidden!])).length, 0);
});
