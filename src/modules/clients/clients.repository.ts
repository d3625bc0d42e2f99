import { sql } from 'kysely';
import { customFieldConditions } from '../custom-fields/index.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage } from '../../platform/lists.ts';
import { likeContains } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { clientVisible } from '../../platform/visibility.ts';
import { CONTACT_COLUMNS } from '../contacts/index.ts';
import { iso, recordOf, recordSql, recordText, selectList, type Field } from '../../platform/json-records.ts';
import { CONTACTS_INLINE_CAP, CLIENT_LIST_OPTIONS, type ClientRecord } from './clients.schemas.ts';

export const clients = tenantTable('clients', { alias: 'c', softDelete: true, visible: clientVisible });
type Query = BaseQuery<'clients', 'c'>;

/** The contact fields inlined in a client, in the Contact schema's order, timestamps in the API's form. */
const CONTACT_FIELDS: Field[] = [...CONTACT_COLUMNS, iso('created_at'), iso('updated_at')];
const LIVE_CONTACTS = `from contacts ct where ct.company_id = $.company_id and ct.client_id = $.id and ct.deleted_at is null`;

/**
 * The client in the Client schema's order: its columns, its live groups, and its first contacts (primary
 * first) up to the cap, with contacts_truncated telling whether there are more.
 */
const CLIENT_FIELDS: Field[] = [
  ...['id', 'name', 'status', 'locale_code', 'reg_code', 'vat_code'],
  ...['address_street', 'address_city', 'address_state', 'address_zip', 'address_country_code'],
  ...['default_person_id', 'ext_client_id', 'client_initials', 'parent_id', 'type'],
  ...['has_monitor', 'timing_required', 'topic_required', 'custom_fields'],
  [
    'groups',
    `array(select l.group_id from client_group_links l join client_groups g on g.company_id = l.company_id
      and g.id = l.group_id where l.company_id = $.company_id and l.client_id = $.id and g.deleted_at is null
      order by l.group_id)`,
  ],
  iso('created_at'),
  iso('updated_at'),
  [
    'contacts',
    `(select coalesce(json_agg(x order by x.is_primary desc, x.id), '[]'::json) from (select
      ${selectList(CONTACT_FIELDS, 'ct')} ${LIVE_CONTACTS} order by ct.is_primary desc, ct.id
      limit ${CONTACTS_INLINE_CAP}) x)`,
  ],
  ['contacts_truncated', `exists (select 1 ${LIVE_CONTACTS} offset ${CONTACTS_INLINE_CAP})`],
];

/** The record's SQL text, for the benchmark's floor (b), which must run exactly this. */
export const clientRecordSql = (alias: string) => recordSql(CLIENT_FIELDS, alias);

/** The sort columns ride along for the keyset cursor; `record` is the client as JSON text, answered as it is. */
function project(query: Query) {
  return query.select(['c.id', 'c.name', 'c.created_at', 'c.updated_at', recordText(CLIENT_FIELDS, 'c').as('record')]);
}

function applyFilters(query: Query, filters: Record<string, unknown>) {
  let q = query;
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where('c.status', 'in', statuses);
  if (filters.name !== undefined) q = q.where('c.name', '=', filters.name as string);
  if (filters.reg_code !== undefined) q = q.where('c.reg_code', '=', filters.reg_code as string);
  if (filters.ext_client_id !== undefined) q = q.where('c.ext_client_id', '=', filters.ext_client_id as string);
  if (filters.default_person_id !== undefined)
    q = q.where('c.default_person_id', '=', filters.default_person_id as number);
  if (filters.q !== undefined) q = q.where('c.name', 'ilike', likeContains(filters.q as string));
  for (const condition of customFieldConditions(filters, 'c')) q = q.where(condition);
  return q;
}

/** A page of clients, each as its JSON text. */
export async function listClientTexts(ctx: Ctx, params: object) {
  const page = await listPage<{ record: string }>(ctx, {
    listId: 'clients',
    params,
    options: CLIENT_LIST_OPTIONS,
    idColumn: 'c.id',
    project,
    // Template (plan) clients are a workflow template's configuration, not customers (index clients_live_work_*).
    base: (filters) => applyFilters(clients.base(ctx).where('c.type', '<>', 'plan'), filters),
  });
  return { data: page.data.map((row) => row.record), meta: page.meta };
}

/** One client as JSON text, with its id and version for the ETag. */
export function findClientText(ctx: Ctx, id: number) {
  return project(clients.base(ctx).where('c.id', '=', id)).executeTakeFirst();
}

/** One client as an object: the same record, for writes, events and other modules. */
export async function findClient(ctx: Ctx, id: number): Promise<ClientRecord | undefined> {
  const row = await clients
    .base(ctx)
    .select(recordOf<ClientRecord>(CLIENT_FIELDS, 'c').as('record'))
    .where('c.id', '=', id)
    .executeTakeFirst();
  return row?.record;
}

/** Locks the live, visible client for the rest of the transaction (other modules lock it before writing under it). */
export const lockClient = (ctx: Ctx, id: number) => clients.lock(ctx, id);

/** The workflow template owning a template (plan) client, or undefined for a customer (or a missing client). */
export async function templateOfPlanClient(ctx: Ctx, id: number): Promise<{ template_id: number | null } | undefined> {
  return scoped
    .select(ctx, 'clients', 'pc')
    .leftJoin('workflow_templates as w', (join) =>
      join.onRef('w.company_id', '=', 'pc.company_id').onRef('w.plan_client_id', '=', 'pc.id'),
    )
    .select('w.id as template_id')
    .where('pc.id', '=', id)
    .where('pc.type', '=', 'plan')
    .executeTakeFirst();
}

/** A new version (and ETag) for a client whose derived fields changed, e.g. its groups. */
export async function touchClient(ctx: Ctx, id: number): Promise<void> {
  await clients.update(ctx, id, {});
}

export async function replaceGroups(ctx: Ctx, clientId: number, groupIds: readonly number[]): Promise<void> {
  await scoped.delete(ctx, 'client_group_links').where('client_id', '=', clientId).execute();
  if (groupIds.length === 0) return;
  await scoped
    .insert(
      ctx,
      'client_group_links',
      groupIds.map((group_id) => ({ client_id: clientId, group_id })),
    )
    .execute();
}

/** The parent chain from `id` upwards, to refuse a parent that would make a cycle. */
export async function ancestorIds(ctx: Ctx, id: number): Promise<number[]> {
  // tenant: deliberate SQL
  const result = await sql<{ id: number }>`with recursive up(id, parent_id, depth) as (
      select id, parent_id, 0 from clients where company_id = ${ctx.companyId} and id = ${id}
      union all
      select c.id, c.parent_id, up.depth + 1 from clients c join up on c.company_id = ${ctx.companyId} and c.id = up.parent_id where up.depth < 100)
    select id from up`.execute(ctx.db);
  return result.rows.map((r) => r.id);
}
