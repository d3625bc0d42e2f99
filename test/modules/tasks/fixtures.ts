import assert from 'node:assert/strict';
import type { TenantFixture, TestApp } from '../../helpers.ts';

/** Test data for the task tests: API calls where the API can make it, direct rows where it cannot (templates, timers, time entries). */

export async function createClient(
  t: TestApp,
  body: Record<string, unknown> = {},
  tenant?: TenantFixture,
): Promise<number> {
  const res = await t.request('POST', '/clients', { body: { name: 'Client', ...body }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

export async function createTask(
  t: TestApp,
  body: Record<string, unknown> = {},
  options: { key?: string; tenant?: TenantFixture } = {},
) {
  const res = await t.request('POST', '/tasks', {
    body: { title: 'Task', ...body },
    key: options.key,
    tenant: options.tenant,
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const companyOf = (t: TestApp, tenant?: TenantFixture) => (tenant ?? t.tenant).companyId;

/** A client row written directly, e.g. a workflow-template client (type plan), which the API cannot create. */
export async function insertClient(
  t: TestApp,
  values: Record<string, unknown>,
  tenant?: TenantFixture,
): Promise<number> {
  const row = await t.db.db
    .insertInto('clients')
    .values({
      name: 'Direct client',
      status: 'active',
      timing_required: 0,
      topic_required: 0,
      ...values,
      company_id: companyOf(t, tenant),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertProject(t: TestApp, clientId: number | null, tenant?: TenantFixture): Promise<number> {
  const company_id = companyOf(t, tenant);
  const type = await t.db.db
    .insertInto('project_types')
    .values({ company_id, name: 'Test type', status: 'active' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await t.db.db
    .insertInto('projects')
    .values({ company_id, name: 'Project', project_type_id: type.id, client_id: clientId, status: 'active' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A task row written directly: template rows and timer rows come from engines outside this API. */
export async function insertTaskRow(
  t: TestApp,
  values: Record<string, unknown>,
  tenant?: TenantFixture,
): Promise<number> {
  const row = await t.db.db
    .insertInto('tasks')
    .values({ title: 'Direct row', status: 'new', type: 'task', ...values, company_id: companyOf(t, tenant) } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertTimeEntry(
  t: TestApp,
  values: {
    task_id: number;
    person_id: number;
    start: string;
    end?: string | null;
    duration?: number | null;
    deleted_at?: string | null;
  },
): Promise<number> {
  const row = await t.db.db
    .insertInto('time_entries')
    .values({ billable: 1, end: null, duration: null, ...values, company_id: t.tenant.companyId } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addClientMember(t: TestApp, clientId: number, personId: number): Promise<void> {
  await t.db.db
    .insertInto('client_members')
    .values({ company_id: t.tenant.companyId, client_id: clientId, person_id: personId, role: null } as never)
    .execute();
}

export async function insertWorkflowRole(t: TestApp, tenant?: TenantFixture): Promise<number> {
  const row = await t.db.db
    .insertInto('workflow_roles')
    .values({ company_id: companyOf(t, tenant), name: 'Reviewer' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Task events recorded so far, oldest first. */
export async function taskEvents(t: TestApp, recordId?: number) {
  let query = t.db.db
    .selectFrom('events')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('entity', '=', 'task');
  if (recordId !== undefined) query = query.where('record_id', '=', recordId);
  return query.orderBy('id').execute();
}

export const storedTask = (t: TestApp, id: number) =>
  t.db.db
    .selectFrom('tasks')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

export const storedAssignees = async (t: TestApp, taskId: number) =>
  (
    await t.db.db
      .selectFrom('task_assignees')
      .select('person_id')
      .where('company_id', '=', t.tenant.companyId)
      .where('task_id', '=', taskId)
      .orderBy('person_id')
      .execute()
  ).map((r) => r.person_id);

/** Polls GET /jobs/{id} until the job is finished or failed. */
export async function waitForJob(t: TestApp, jobId: number, key = 'admin') {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await t.request('GET', `/jobs/${jobId}`, { key });
    assert.equal(res.status, 200, res.text);
    if (res.body.data.status === 'finished' || res.body.data.status === 'failed') return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}

export const TASK_FIELDS = [
  'assignees',
  'checklist',
  'client_id',
  'comments',
  'comments_truncated',
  'created_at',
  'custom_fields',
  'date',
  'description',
  'due_date',
  'estimation',
  'finished_at',
  'has_due_date',
  'id',
  'is_extra',
  'is_important',
  'is_recurring',
  'project_id',
  'project_status_from',
  'recurrence_date',
  'recurrence_parent_id',
  'recurrence_rule',
  'status',
  'timezone',
  'title',
  'topic_id',
  'tracked_time',
  'type',
  'updated_at',
  'workflow_role_ids',
];
