import { randomBytes } from 'node:crypto';
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
  invitation_id: async (t, tenant) => {
    const email = `walk-invitee-${tenant.companyId}@test.example`;
    const person = await insert(t, 'people', { company_id: tenant.companyId, name: 'Walk invitee', email });
    const member = await insert(t, 'members', {
      company_id: tenant.companyId,
      person_id: person,
      role: 'member',
      status: 'pending',
    });
    return insert(t, 'invitations', {
      company_id: tenant.companyId,
      member_id: member,
      email,
      role: 'member',
      token_hash: randomBytes(32),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
  },
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
  flextime_id: (t, tenant) =>
    insert(t, 'flextime_rows', {
      company_id: tenant.companyId,
      person_id: tenant.memberPersonId,
      date: '2026-07-01',
      duration: 3600,
    }),
  reclaim_id: async (t, tenant) => {
    const task = (title: string) => insert(t, 'tasks', { company_id: tenant.companyId, title });
    return insert(t, 'reclaims', {
      company_id: tenant.companyId,
      source_task_id: await task('Walk reclaim source'),
      target_task_id: await task('Walk reclaim target'),
    });
  },
  job_id: (t, tenant) =>
    insert(t, 'jobs', { company_id: tenant.companyId, type: 'task_bulk_action', api_key_id: tenant.keyIds.admin }),
  webhook_id: (t, tenant) =>
    insert(t, 'webhooks', {
      company_id: tenant.companyId,
      event: 'client.created',
      url: 'https://93.184.216.34/walk',
      secret: 'whsec_walk',
    }),
  tax_id: (t, tenant) => insert(t, 'taxes', { company_id: tenant.companyId, name: 'Walk VAT', rate: '0.22' }),
  invoice_seller_id: (t, tenant) => insert(t, 'invoice_sellers', { company_id: tenant.companyId, name: 'Walk seller' }),
  product_id: (t, tenant) => insert(t, 'products', { company_id: tenant.companyId, name: 'Walk product' }),
  price_id: async (t, tenant, made) =>
    insert(t, 'product_prices', {
      company_id: tenant.companyId,
      product_id: made.product_id ?? (await paramMakers.product_id!(t, tenant, made)),
      net_price: '50',
    }),
  contract_id: async (t, tenant) =>
    insert(t, 'contracts', {
      company_id: tenant.companyId,
      name: 'Walk contract',
      client_id: await paramMakers.client_id!(t, tenant, {}),
      status: 'pending',
    }),
  contract_row_id: async (t, tenant, made) =>
    insert(t, 'contract_rows', {
      company_id: tenant.companyId,
      contract_id: made.contract_id ?? (await paramMakers.contract_id!(t, tenant, made)),
      description: 'Walk row',
      net_price: '10',
    }),
  invoice_id: async (t, tenant) =>
    insert(t, 'invoices', {
      company_id: tenant.companyId,
      client_id: await paramMakers.client_id!(t, tenant, {}),
      invoice_date: '2026-11-01',
      due_date: '2026-11-15',
      currency: 'EUR',
      client_name: 'Walk client',
    }),
  invoice_row_id: async (t, tenant, made) =>
    insert(t, 'invoice_rows', {
      company_id: tenant.companyId,
      invoice_id: made.invoice_id ?? (await paramMakers.invoice_id!(t, tenant, made)),
      description: 'Walk row',
      quantity: '1',
      net_price: '10',
      net_sum: '10',
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
  // The member above's agreement (member_id comes first), so the member routes find it under that member.
  agreement_id: (t, tenant) =>
    insert(t, 'agreements', {
      company_id: tenant.companyId,
      person_id: tenant.memberPersonId,
      date_from: '2026-01-01',
    }),
  budget_id: (t, tenant) =>
    insert(t, 'budgets', { company_id: tenant.companyId, name: 'Walk budget', budget_net_sum: '1000' }),
  monitor_id: async (t, tenant, made) =>
    insert(t, 'monitors', {
      company_id: tenant.companyId,
      client_id: made.client_id ?? (await paramMakers.client_id!(t, tenant, made)),
      type: 'revenue',
      frequency: 'month',
      value: '100',
    }),
  // Not an id: GET /reports/bi/{shape} names the report's shape.
  shape: async () => 'series',
  app_id: async (t, tenant) =>
    (
      await t.db.db
        .selectFrom('company_apps')
        .select('id')
        .where('company_id', '=', tenant.companyId)
        .where('key', '=', 'drive')
        .executeTakeFirstOrThrow()
    ).id,
  note_id: async (t, tenant, made) =>
    insert(t, 'notes', {
      company_id: tenant.companyId,
      related_type: 'client',
      related_id: made.client_id ?? (await paramMakers.client_id!(t, tenant, made)),
      comments: '<p>Walk note</p>',
    }),
  custom_field_id: (t, tenant) =>
    insert(t, 'custom_fields', {
      company_id: tenant.companyId,
      name: `Walk field ${Math.random().toString(36).slice(2, 10)}`,
      field_type: 'text',
      entity_type: 'client',
    }),
  supplier_type_id: (t, tenant) =>
    insert(t, 'supplier_types', { company_id: tenant.companyId, name: 'Walk supplier type' }),
  supplier_id: (t, tenant) => insert(t, 'suppliers', { company_id: tenant.companyId, name: 'Walk supplier' }),
  product_field_id: (t, tenant) =>
    insert(t, 'product_fields', {
      company_id: tenant.companyId,
      kind: 'article',
      code: `WALK-${Math.random().toString(36).slice(2, 10)}`,
      name: 'Walk article',
    }),
  content_template_id: (t, tenant) =>
    insert(t, 'content_templates', { company_id: tenant.companyId, name: 'Walk template', type: 'client_email' }),
  content_template_row_id: async (t, tenant, made) =>
    insert(t, 'content_template_rows', {
      company_id: tenant.companyId,
      template_id: made.content_template_id ?? (await paramMakers.content_template_id!(t, tenant, made)),
      locale: 'en',
      subject: 'Walk subject',
      body: 'Walk body',
    }),
  folder_template_id: (t, tenant) =>
    insert(t, 'folder_templates', { company_id: tenant.companyId, name: 'Walk template', folders: '[]' }),
  folder_id: async (t, tenant) => {
    const client = await paramMakers.client_id!(t, tenant, {});
    return insert(t, 'folders', {
      company_id: tenant.companyId,
      client_id: client,
      parent_id: null,
      name: 'Documents',
    });
  },
  document_id: async (t, tenant) =>
    insert(t, 'documents', {
      company_id: tenant.companyId,
      client_id: await paramMakers.client_id!(t, tenant, {}),
      name: 'Walk document',
    }),
  digitization_id: async (t, tenant) =>
    insert(t, 'digitizations', {
      company_id: tenant.companyId,
      document_id: await paramMakers.document_id!(t, tenant, {}),
      job_id: await insert(t, 'jobs', {
        company_id: tenant.companyId,
        type: 'document_digitization',
        status: 'finished',
      }),
    }),
  task_automation_id: (t, tenant) =>
    insert(t, 'task_automations', {
      company_id: tenant.companyId,
      name: 'Walk automation',
      trigger: 'task_created',
      actions: JSON.stringify({ set_status: 'in_progress' }),
      active: false,
    }),
  delegation_id: (t, tenant) =>
    insert(t, 'delegations', {
      company_id: tenant.companyId,
      delegator_id: tenant.ownerPersonId,
      delegate_id: tenant.memberPersonId,
      date_from: '2026-01-01',
      date_until: '2026-01-31',
    }),
  workflow_template_id: async (t, tenant) =>
    insert(t, 'workflow_templates', {
      company_id: tenant.companyId,
      kind: 'workflow_template',
      name: 'Walk workflow template',
      plan_client_id: await insert(t, 'clients', { company_id: tenant.companyId, name: 'Walk plan', type: 'plan' }),
    }),
  project_workflow_id: async (t, tenant) =>
    insert(t, 'workflow_templates', {
      company_id: tenant.companyId,
      kind: 'project_workflow',
      name: 'Walk project workflow',
      project_type_id: await paramMakers.project_type_id!(t, tenant, {}),
    }),
  // Left processing (no bytes behind it): download answers 409, every other route works on the record.
  attachment_id: async (t, tenant, made) =>
    insert(t, 'attachments', {
      company_id: tenant.companyId,
      related_type: 'task',
      related_id: made.task_id ?? (await paramMakers.task_id!(t, tenant, made)),
      file_name: 'walk.pdf',
      content_type: 'application/pdf',
      size: 4,
      sha256: '0'.repeat(64),
    }),
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

/** Path parameters that name no company record (GET /reports/bi/{shape}): nothing for another tenant to reach. */
export const NOT_RECORD_PARAMS = new Set(['shape']);

/** Whether a route's path names a company record, so another tenant's call must answer 404. */
export const namesRecord = (url: string): boolean => paramsOf(url).some((p) => !NOT_RECORD_PARAMS.has(p));

export function paramsOf(url: string): string[] {
  return [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

export function fill(url: string, values: Record<string, number | string>): string {
  return url.replace(/:(\w+)/g, (_, name: string) => String(values[name]));
}
