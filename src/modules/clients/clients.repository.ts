import { sql } from 'kysely';
import { customFieldConditions } from '../custom-fields/index.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { cachedQuery, ShapeCache } from '../../platform/query-cache.ts';
import { likeContains } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery, tenant } from '../../platform/tenant-table.ts';
import { inlineContacts } from '../contacts/index.ts';
import {
  CONTACTS_INLINE_CAP,
  CLIENT_LIST_OPTIONS,
  type ClientListParams,
  type ClientRecord,
} from './clients.schemas.ts';

export const clients = tenantTable('clients', { alias: 'c', softDelete: true });
type Query = BaseQuery<'clients', 'c'>;
type ClientRow = Omit<ClientRecord, 'contacts_truncated'>;

/** The client's columns plus its groups and (capped + 1, to detect truncation) contacts, built in SQL. */
function project(query: Query) {
  return query.select([
    'c.id',
    'c.name',
    'c.status',
    'c.type',
    'c.locale_code',
    'c.reg_code',
    'c.vat_code',
    'c.address_street',
    'c.address_city',
    'c.address_state',
    'c.address_zip',
    'c.address_country_code',
    'c.default_person_id',
    'c.ext_client_id',
    'c.client_initials',
    'c.parent_id',
    'c.endpoint_id',
    'c.endpoint_scheme',
    'c.has_monitor',
    'c.timing_required',
    'c.topic_required',
    'c.custom_fields',
    'c.created_at',
    'c.updated_at',
    sql<
      number[]
    >`array(select l.group_id from client_group_links l join client_groups g on g.company_id = l.company_id and g.id = l.group_id
      where l.company_id = c.company_id and l.client_id = c.id and g.deleted_at is null order by l.group_id)`.as(
      'groups',
    ),
    inlineContacts<ClientRecord['contacts']>(CONTACTS_INLINE_CAP + 1).as('contacts'),
  ]);
}

export function withTruncation(row: ClientRow): ClientRecord {
  const truncated = row.contacts.length > CONTACTS_INLINE_CAP;
  return {
    ...row,
    contacts: truncated ? row.contacts.slice(0, CONTACTS_INLINE_CAP) : row.contacts,
    contacts_truncated: truncated,
  };
}

function applyFilters(query: Query, filters: ListFilters<ClientListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('c.status', 'in', statuses);
  if (filters.name !== undefined) q = q.where('c.name', '=', filters.name);
  if (filters.reg_code !== undefined) q = q.where('c.reg_code', '=', filters.reg_code);
  if (filters.ext_client_id !== undefined) q = q.where('c.ext_client_id', '=', filters.ext_client_id);
  if (filters.default_person_id !== undefined) q = q.where('c.default_person_id', '=', filters.default_person_id);
  if (filters.q !== undefined) q = q.where('c.name', 'ilike', likeContains(filters.q));
  for (const condition of customFieldConditions(filters, 'c')) q = q.where(condition);
  return q;
}

const listShapes = new ShapeCache();

export async function listClients(ctx: Ctx, params: ClientListParams) {
  const page = await listPage<ClientRow, ClientListParams>(ctx, {
    listId: 'clients',
    params,
    options: CLIENT_LIST_OPTIONS,
    idColumn: 'c.id',
    project,
    // Template (plan) clients are a workflow template's configuration, not customers (index clients_live_work_*).
    base: (filters, c) => applyFilters(clients.base(c).where('c.type', '<>', 'plan'), filters),
    cache: { shapes: listShapes, key: '' },
  });
  return { data: page.data.map(withTruncation), meta: page.meta };
}

const clientById = cachedQuery((ctx: Ctx, id: number) => project(clients.base(ctx).where('c.id', '=', id)));

export async function findClient(ctx: Ctx, id: number): Promise<ClientRecord | undefined> {
  const [row] = await clientById(ctx, id);
  return row ? withTruncation(row as ClientRow) : undefined;
}

/** For the tests that hold these hot reads to their cached shapes. */
export const clientReadCached = (ctx: Ctx) => clientById.cachedFor(ctx);
export const clientListShapes = listShapes;

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
      select id, parent_id, 0 from clients where ${tenant(ctx)} and id = ${id}
      union all
      select c.id, c.parent_id, up.depth + 1 from clients c join up on ${tenant(ctx, 'c')} and c.id = up.parent_id where up.depth < 100)
    select id from up`.execute(ctx.db);
  return result.rows.map((r) => r.id);
}
