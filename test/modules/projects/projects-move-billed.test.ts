import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { billingFixtures } from '../billing/support.ts';
import { projectFixtures } from './fixtures.ts';

// Issue 24 item 14: the spec's project move keeps already-invoiced work with the old client. A billed entry's
// client is its invoice's client, not its moved task's, in the record, the client_id filter and the reports.
const t = await createTestApp();
const f = projectFixtures(t);
const billing = billingFixtures(t);

const ids = (body: { data: Array<{ id: number }> }) => body.data.map((e) => e.id).sort((a, b) => a - b);

test('a project move leaves invoiced time with the old client; unbilled time moves with its task', async () => {
  await billing.setBilling(true);
  const oldClient = await billing.client('Old Client Ltd');
  const newClient = await billing.client('New Client Ltd');
  const product = await billing.hourly('Move hours');
  await billing.price(product, '100');
  const contract = await billing.contract(oldClient);
  await billing.row(contract, { product_id: product });
  const project = await f.createProject({ name: 'Moving project', client_id: oldClient });
  const task = await t.request('POST', '/tasks', {
    body: { title: 'Moving task', client_id: oldClient, project_id: project },
  });
  assert.equal(task.status, 201, task.text);
  const [billed] = await billing.entries(task.body.data.id, [['2026-10-05T08:00:00Z', '2026-10-05T10:00:00Z']]);
  const run = await billing.bill(oldClient, { date_from: '2026-10-01', date_to: '2026-10-31' });
  assert.equal(run.status, 201, run.text);
  assert.deepEqual(
    (await billing.links(run.body.data.invoices[0].id)).map((l) => l.time_entry_id),
    [billed],
  );
  const [unbilled] = await billing.entries(task.body.data.id, [['2026-11-03T08:00:00Z', '2026-11-03T09:00:00Z']]);

  const moved = await t.request('PATCH', `/projects/${project}`, { body: { client_id: newClient } });
  assert.equal(moved.status, 200, moved.text);
  assert.equal((await t.request('GET', `/tasks/${task.body.data.id}`)).body.data.client_id, newClient);

  assert.equal((await t.request('GET', `/time-entries/${billed}`)).body.data.client_id, oldClient);
  assert.equal((await t.request('GET', `/time-entries/${unbilled}`)).body.data.client_id, newClient);
  assert.deepEqual(ids((await t.request('GET', `/time-entries?client_id=${oldClient}`)).body), [billed]);
  assert.deepEqual(ids((await t.request('GET', `/time-entries?client_id=${newClient}`)).body), [unbilled]);

  const report = await t.request(
    'GET',
    '/reports/time-summary?date_from=2026-10-01&date_to=2026-11-30&group_by=client',
  );
  assert.equal(report.status, 200, report.text);
  const seconds = Object.fromEntries(
    report.body.data.groups.map((g: { id: number; seconds: number }) => [g.id, g.seconds]),
  );
  assert.deepEqual(
    seconds,
    { [oldClient]: 7200, [newClient]: 3600 },
    'billed hours stay reported under the old client',
  );
});

test('a task moved on its own keeps its invoiced time with the old client too', async () => {
  const from = await billing.client('Task From Ltd');
  const to = await billing.client('Task To Ltd');
  const product = await billing.hourly('Task move hours');
  await billing.price(product, '100');
  await billing.row(await billing.contract(from), { product_id: product });
  const taskId = await billing.task(from, null, 'Standalone task');
  const [billed] = await billing.entries(taskId, [['2026-10-07T08:00:00Z', '2026-10-07T09:00:00Z']]);
  assert.equal((await billing.bill(from, { date_from: '2026-10-01', date_to: '2026-10-31' })).status, 201);
  const moved = await t.request('PATCH', `/tasks/${taskId}`, { body: { client_id: to } });
  assert.equal(moved.status, 200, moved.text);
  assert.equal((await t.request('GET', `/time-entries/${billed}`)).body.data.client_id, from);
  assert.deepEqual(ids((await t.request('GET', `/time-entries?client_id=${from}`)).body), [billed]);
  assert.deepEqual(ids((await t.request('GET', `/time-entries?client_id=${to}`)).body), []);
  const noted = await t.db.db
    .selectFrom('invoiced_work_tasks')
    .select(['client_id', 'task_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('task_id', '=', taskId)
    .execute();
  assert.deepEqual(noted, [{ client_id: from, task_id: taskId }], 'the move noted where its invoiced work belongs');
});
