import { sql } from 'kysely';
import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { likeContains, nextStamp } from '../../platform/sql.ts';
import { CLIENT_GROUP_LIST_OPTIONS, type ClientGroupRecord } from './client-groups.schemas.ts';

export type ClientGroupColumns = Pick<ClientGroupRecord, 'name' | 'color' | 'status'>;

function base(ctx: Ctx) {
  return ctx.db
    .selectFrom('client_groups as g')
    .where('g.company_id', '=', ctx.companyId)
    .where('g.deleted_at', 'is', null);
}

function project(query: ReturnType<typeof base>) {
  return query.select(['g.id', 'g.name', 'g.color', 'g.status', 'g.created_at', 'g.updated_at']);
}

function applyFilters(query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  let q = query;
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where('g.status', 'in', statuses);
  if (filters.q !== undefined) q = q.where('g.name', 'ilike', likeContains(filters.q as string));
  return q;
}

export async function listClientGroups(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'client-groups', params, CLIENT_GROUP_LIST_OPTIONS);
  return paginate<ClientGroupRecord>(ctx, {
    listId: 'client-groups', base: applyFilters(base(ctx), filters), idColumn: 'g.id', project: project as never,
    options: CLIENT_GROUP_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findClientGroup(ctx: Ctx, id: number): Promise<ClientGroupRecord | undefined> {
  return project(base(ctx).where('g.id', '=', id)).executeTakeFirst() as Promise<ClientGroupRecord | undefined>;
}

/**
 * Locks the group for the rest of the transaction. FOR UPDATE conflicts with the key-share lock a
 * concurrent link insert takes on the group, so a delete and a new membership are serialised.
 */
export async function lockClientGroup(ctx: Ctx, id: number) {
  return base(ctx).where('g.id', '=', id).select(['g.id', 'g.updated_at']).forUpdate().executeTakeFirst();
}

export async function insertClientGroup(ctx: Ctx, values: ClientGroupColumns): Promise<number> {
  const row = await ctx.db.insertInto('client_groups').values({ ...values, company_id: ctx.companyId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateClientGroup(ctx: Ctx, id: number, values: Partial<ClientGroupColumns>): Promise<void> {
  await ctx.db.updateTable('client_groups').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteClientGroup(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'client_groups', id);
}

/** Live clients with status active linked to the group: while there are any, the group cannot be deleted. */
export async function countActiveMembers(ctx: Ctx, groupId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('client_group_links as l')
    .innerJoin('clients as c', (join) => join.onRef('c.company_id', '=', 'l.company_id').onRef('c.id', '=', 'l.client_id'))
    .select(sql<number>`count(*)::int`.as('n'))
    .where('l.company_id', '=', ctx.companyId)
    .where('l.group_id', '=', groupId)
    .where('c.deleted_at', 'is', null)
    .where('c.status', '=', 'active')
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Removes every link to the group; answers the live clients that lost it (their `groups` changed). */
export async function unlinkGroup(ctx: Ctx, groupId: number): Promise<number[]> {
  const removed = await ctx.db.deleteFrom('client_group_links')
    .where('company_id', '=', ctx.companyId).where('group_id', '=', groupId).returning('client_id').execute();
  if (removed.length === 0) return [];
  const live = await ctx.db.selectFrom('clients').select('id')
    .where('company_id', '=', ctx.companyId).where('id', 'in', removed.map((r) => r.client_id)).where('deleted_at', 'is', null)
    .orderBy('id').execute();
  return live.map((r) => r.id);
}
