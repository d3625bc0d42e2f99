import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { likeContains, nextStamp } from '../../platform/sql.ts';
import { TOPIC_LIST_OPTIONS, type TopicRecord } from './topics.schemas.ts';

export type TopicColumns = Pick<TopicRecord, 'name' | 'status' | 'color' | 'billable'>;

function base(ctx: Ctx) {
  return ctx.db
    .selectFrom('topics as tp')
    .where('tp.company_id', '=', ctx.companyId)
    .where('tp.deleted_at', 'is', null);
}

function project(query: ReturnType<typeof base>) {
  return query.select(['tp.id', 'tp.name', 'tp.status', 'tp.billable', 'tp.color', 'tp.created_at', 'tp.updated_at']);
}

function applyFilters(query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  let q = query;
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where('tp.status', 'in', statuses);
  if (filters.q !== undefined) q = q.where('tp.name', 'ilike', likeContains(filters.q as string));
  return q;
}

export async function listTopics(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'topics', params, TOPIC_LIST_OPTIONS);
  return paginate<TopicRecord>(ctx, {
    listId: 'topics', base: applyFilters(base(ctx), filters), idColumn: 'tp.id', project: project as never,
    options: TOPIC_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findTopic(ctx: Ctx, id: number): Promise<TopicRecord | undefined> {
  return project(base(ctx).where('tp.id', '=', id)).executeTakeFirst() as Promise<TopicRecord | undefined>;
}

/** Locks the row for the rest of the transaction; undefined when absent, deleted or another tenant's. */
export async function lockTopic(ctx: Ctx, id: number) {
  return base(ctx).where('tp.id', '=', id).select(['tp.id', 'tp.updated_at']).forUpdate().executeTakeFirst();
}

export async function insertTopic(ctx: Ctx, values: TopicColumns): Promise<number> {
  const row = await ctx.db.insertInto('topics').values({ ...values, company_id: ctx.companyId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTopic(ctx: Ctx, id: number, values: Partial<TopicColumns>): Promise<void> {
  await ctx.db.updateTable('topics').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteTopic(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'topics', id);
}
