import type { TestApp, TenantFixture } from '../helpers.ts';

/**
 * One live record per path parameter, created for a tenant straight in SQL, so the route walks can
 * fill any route's ids. A new module adds its parameters here; a route with an unknown parameter
 * fails the walk until it does.
 */
type Maker = (t: TestApp, tenant: TenantFixture, made: Record<string, number | string>) => Promise<number | string>;

const insert = async (t: TestApp, table: string, values: Record<string, unknown>): Promise<number> => {
  const row = await t.db.db
    .insertInto(table as never)
    .values(values as never)
    .returning('id' as never)
    .executeTakeFirstOrThrow();
  return (row as { id: number }).id;
};

export const paramMakers: Record<string, Maker> = {
  client_id: (t, tenant) =>
    insert(t, 'clients', {
      company_id: tenant.companyId,
      name: 'Walk client',
      status: 'active',
      timing_required: 0,
      topic_required: 0,
      default_person_id: tenant.memberPersonId,
    }),
  contact_id: async (t, tenant, made) =>
    insert(t, 'contacts', {
      company_id: tenant.companyId,
      client_id: made.client_id,
      name: 'Walk contact',
      is_primary: 0,
    }),
  client_group_id: (t, tenant) =>
    insert(t, 'client_groups', { company_id: tenant.companyId, name: 'Walk group', status: 'active' }),
  topic_id: (t, tenant) =>
    insert(t, 'topics', { company_id: tenant.companyId, name: 'Walk topic', status: 'active', billable: 1 }),
  member_id: async (t, tenant) =>
    (
      await t.db.db
        .selectFrom('members')
        .select('id')
        .where('company_id', '=', tenant.companyId)
        .where('person_id', '=', tenant.memberPersonId)
        .executeTakeFirstOrThrow()
    ).id,
  key_id: async (_t, tenant) => tenant.keyIds.read,
  activity_id: async (t, tenant) => {
    const row = await t.db.db
      .insertInto('activities')
      .values({
        company_id: tenant.companyId,
        entity: 'client',
        action: 'created',
        method: 'POST',
        path: '/api/v3/clients',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  },
  workflow_role_id: (t, tenant) =>
    insert(t, 'workflow_roles', { company_id: tenant.companyId, name: 'Walk workflow role', sort_order: 1 }),
  role_id: (t, tenant) => insert(t, 'roles', { company_id: tenant.companyId, name: 'Walk job title' }),
  team_id: (t, tenant) => insert(t, 'teams', { company_id: tenant.companyId, name: 'Walk team' }),
  calendar_entry_id: (t, tenant) =>
    insert(t, 'calendar_entries', {
      company_id: tenant.companyId,
      type: 'vacation',
      person_id: tenant.memberPersonId,
      date_from: '2026-07-01',
      date_until: '2026-07-02',
    }),
  project_type_id: async (t, tenant) =>
    (
      await t.db.db
        .selectFrom('project_types')
        .select('id')
        .where('company_id', '=', tenant.companyId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id,
  project_id: async (t, tenant) =>
    insert(t, 'projects', {
      company_id: tenant.companyId,
      name: 'Walk project',
      project_type_id: await paramMakers.project_type_id!(t, tenant, {}),
    }),
  task_relation_id: async (t, tenant) => {
    const task = (title: string) => insert(t, 'tasks', { company_id: tenant.companyId, title });
    return insert(t, 'task_relations', {
      company_id: tenant.companyId,
      task_id: await task('Walk dependent'),
      depends_on_id: await task('Walk prerequisite'),
    });
  },
  client_member_id: async (t, tenant) =>
    insert(t, 'client_members', {
      company_id: tenant.companyId,
      person_id: tenant.ownerPersonId,
      client_id: await insert(t, 'clients', {
        company_id: tenant.companyId,
        name: 'Walk member client',
        status: 'active',
        timing_required: 0,
        topic_required: 0,
      }),
    }),
  time_entry_id: async (t, tenant) =>
    insert(t, 'time_entries', {
      company_id: tenant.companyId,
      task_id: await insert(t, 'tasks', { company_id: tenant.companyId, title: 'Walk timed task' }),
      person_id: tenant.memberPersonId,
      start: '2026-07-01T09:00:00Z',
      end: '2026-07-01T10:00:00Z',
      duration: 3600,
    }),
  task_id: (t, tenant) => insert(t, 'tasks', { company_id: tenant.companyId, title: 'Walk task' }),
  job_id: (t, tenant) =>
    insert(t, 'jobs', { company_id: tenant.companyId, type: 'task_bulk_action', api_key_id: tenant.keyIds.admin }),
  webhook_id: (t, tenant) =>
    insert(t, 'webhooks', {
      company_id: tenant.companyId,
      event: 'client.created',
      url: 'https://93.184.216.34/walk',
      secret: 'whsec_walk',
    }),
  // An event the webhook above had a delivery of (the outbox trigger queues it), by its UUID.
  event_id: async (t, tenant) =>
    (
      await t.db.db
        .insertInto('events')
        .values({
          company_id: tenant.companyId,
          uuid: crypto.randomUUID(),
          event: 'client.created',
          entity: 'client',
          action: 'created',
          record_id: 1,
          data: JSON.stringify({ id: 1 }),
          api_key_id: null,
          person_id: null,
          occurred_at: new Date().toISOString(),
        })
        .returning('uuid')
        .executeTakeFirstOrThrow()
    ).uuid,
};

/** Order matters where one record hangs off another (a contact needs its client first). */
export async function makeFixtures(
  t: TestApp,
  tenant: TenantFixture,
  params: Iterable<string>,
): Promise<Record<string, number | string>> {
  const made: Record<string, number | string> = {};
  const wanted = new Set(params);
  for (const name of Object.keys(paramMakers)) {
    if (!wanted.has(name)) continue;
    made[name] = await paramMakers[name]!(t, tenant, made);
  }
  const missing = [...wanted].filter((p) => !(p in made));
  if (missing.length)
    throw new Error(
      `no fixture maker for path parameter(s): ${missing.join(', ')} (add one to test/support/fixtures.ts)`,
    );
  return made;
}

export function paramsOf(url: string): string[] {
  return [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

export function fill(url: string, values: Record<string, number | string>): string {
  return url.replace(/:(\w+)/g, (_, name: string) => String(values[name]));
}
