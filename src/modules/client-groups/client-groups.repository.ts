import type { ClientGroupListParams } from './client-groups.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, firstRecord } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { activeClientSql, liveClientIds } from '../clients/index.ts';
import { CLIENT_GROUP_LIST_OPTIONS, type ClientGroupRecord, type ClientGroupStatus } from './client-groups.schemas.ts';

/**
 * Its lock() is FOR UPDATE, which conflicts with the key-share lock a concurrent link insert takes
 * on the group, so a delete and a new membership are serialised.
 */
export const clientGroups = tenantTable('client_groups', { alias: 'g', softDelete: true });
type Query = BaseQuery<'client_groups', 'g'>;

function project(query: Query) {
  return query.select(['g.id', 'g.name', 'g.color', 'g.status', 'g.created_at', 'g.updated_at']);
}

function applyFilters(query: Query, filters: ListFilters<ClientGroupListParams>) {
  let q = query;
  // The query schema allows only the listed values (EnumList).
  const statuses = splitList(filters.status) as ClientGroupStatus[] | undefined;
  if (statuses) q = q.where('g.status', 'in', statuses);
  if (filters.q !== undefined) q = q.where('g.name', 'ilike', likeContains(filters.q));
  return q;
}

export function listClientGroups(ctx: Ctx, params: ClientGroupListParams) {
  return listPage<ClientGroupRecord, ClientGroupListParams>(ctx, {
    listId: 'client-groups',
    params,
    options: CLIENT_GROUP_LIST_OPTIONS,
    idColumn: 'g.id',
    project,
    base: (filters) => applyFilters(clientGroups.base(ctx), filters),
  });
}

export async function findClientGroup(ctx: Ctx, id: number): Promise<ClientGroupRecord | undefined> {
  return firstRecord<ClientGroupRecord>(project(clientGroups.base(ctx).where('g.id', '=', id)));
}

/** Live clients with status active linked to the group: while there are any, the group cannot be deleted. */
export async function countActiveMembers(ctx: Ctx, groupId: number): Promise<number> {
  const row = await scoped
    .select(ctx, 'client_group_links', 'l')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('l.group_id', '=', groupId)
    .where(activeClientSql('l.company_id', 'l.client_id'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Removes every link to the group; answers the live clients that lost it (their `groups` changed). */
export async function unlinkGroup(ctx: Ctx, groupId: number): Promise<number[]> {
  const removed = await scoped
    .delete(ctx, 'client_group_links')
    .where('group_id', '=', groupId)
    .returning('client_id')
    .execute();
  // scoped.delete types returning() over every tenant table; a link's client_id is an integer, never null.
  return liveClientIds(
    ctx,
    removed.map((r) => r.client_id as number),
  );
}
