/** Shared by the task automation tests: one app per test file, the module's periodic work, stored rows. */
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { periodicTasks } from '../../../src/background/periodic.ts';
import { loadModules } from '../../../src/modules/index.ts';

export const t = await createTestApp();
export const owner = t.tenant.ownerPersonId;
export const member = t.tenant.memberPersonId;
export const DAY = 86_400_000;

/** The module's periodic work as a server or worker runs it (the test app starts no background work). */
export const periodic = periodicTasks(loadModules());
export async function runPeriodic(name: string, now = new Date()) {
  const task = periodic.find((p) => p.name === name);
  assert.ok(task, `periodic task ${name} is registered`);
  return (await task.run(t.db.db, now)) as { events: number; runs: number; failed: number };
}
export const runQueue = () => runPeriodic('task-automations');

export async function post(path: string, body: Record<string, unknown>, tenant?: TenantFixture) {
  const res = await t.request('POST', path, { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}
export const createAutomation = (body: Record<string, unknown>, tenant?: TenantFixture) =>
  post('/task-automations', { name: 'Rule', ...body }, tenant);
export const createTask = (body: Record<string, unknown>) => post('/tasks', { title: 'Task', ...body });
export const getTask = async (id: number) => (await t.request('GET', `/tasks/${id}`)).body.data;

export const db = t.db.db;
export const runsOf = (automationId: number) =>
  db
    .selectFrom('task_automation_runs')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('automation_id', '=', automationId)
    .orderBy('id')
    .execute();
export const auditOf = (taskId: number) =>
  db
    .selectFrom('activities')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('entity', '=', 'task')
    .where('record_id', '=', taskId)
    .where('method', '=', 'AUTOMATION')
    .execute();
export const tasksTitled = (title: string) =>
  db
    .selectFrom('tasks')
    .select(['id', 'client_id', 'due_date', 'status'])
    .where('company_id', '=', t.tenant.companyId)
    .where('title', '=', title)
    .where('deleted_at', 'is', null)
    .execute();
export const queueSize = async () =>
  (await db.selectFrom('task_automation_queue').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
/** Rules are switched off after each test, so the next test sees only its own. */
export async function deactivateAll() {
  await db.updateTable('task_automations').set({ active: false }).execute();
  await db.deleteFrom('task_automation_queue').execute();
}
