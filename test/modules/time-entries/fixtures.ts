import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { TenantFixture, TestApp } from '../../helpers.ts';

/** Tasks belong to another module: the time-entry tests insert them directly. */
export async function insertTask(
  t: TestApp,
  tenant: TenantFixture,
  extra: {
    client_id?: number | null;
    topic_id?: number | null;
    title?: string;
    template_kind?: 'workflow_template' | null;
    deleted_at?: string | null;
  } = {},
): Promise<number> {
  const row = await t.db.db
    .insertInto('tasks')
    .values({
      company_id: tenant.companyId,
      title: extra.title ?? 'Write the report',
      status: 'new',
      type: 'task',
      template_kind: extra.template_kind ?? null,
      client_id: extra.client_id ?? null,
      project_id: null,
      topic_id: extra.topic_id ?? null,
      project_status_from: null,
      reopen_status: null,
      is_important: false,
      is_extra: false,
      is_recurring: 0,
      date: null,
      due_date: null,
      finished_at: null,
      has_due_date: 0,
      estimation: null,
      timezone: null,
      recurrence_parent_id: null,
      recurrence_date: null,
      custom_fields: null,
      deleted_at: extra.deleted_at ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function assignTask(t: TestApp, tenant: TenantFixture, taskId: number, personId: number): Promise<void> {
  await t.db.db
    .insertInto('task_assignees')
    .values({ company_id: tenant.companyId, task_id: taskId, person_id: personId })
    .execute();
}

export async function insertClient(
  t: TestApp,
  tenant: TenantFixture,
  defaultPersonId: number | null = null,
): Promise<number> {
  const row = await t.db.db
    .insertInto('clients')
    .values({ company_id: tenant.companyId, name: 'Client', default_person_id: defaultPersonId } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertTopic(t: TestApp, tenant: TenantFixture): Promise<number> {
  const row = await t.db.db
    .insertInto('topics')
    .values({ company_id: tenant.companyId, name: 'Support' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function countEntries(t: TestApp, tenant: TenantFixture): Promise<number> {
  const row = await t.db.db
    .selectFrom('time_entries')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('company_id', '=', tenant.companyId)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function countEvents(t: TestApp, tenant: TenantFixture, event = 'time_entry.created'): Promise<number> {
  const row = await t.db.db
    .selectFrom('events')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('company_id', '=', tenant.companyId)
    .where('event', '=', event)
    .executeTakeFirstOrThrow();
  return row.n;
}

export const storedEntry = (t: TestApp, tenant: TenantFixture, id: number) =>
  t.db.db
    .selectFrom('time_entries')
    .selectAll()
    .where('company_id', '=', tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** POSTs an entry and returns the answer, asserting the status. */
export async function logTime(
  t: TestApp,
  body: Record<string, unknown>,
  options: { tenant?: TenantFixture; key?: string; status?: number } = {},
) {
  const res = await t.request('POST', '/time-entries', { body, tenant: options.tenant, key: options.key });
  assert.equal(res.status, options.status ?? 201, res.text);
  return res;
}
