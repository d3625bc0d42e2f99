import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage } from '../../platform/lists.ts';
import { likeContains } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { TOPIC_LIST_OPTIONS, type TopicRecord } from './topics.schemas.ts';

export const topics = tenantTable('topics', { alias: 'tp', softDelete: true });
type Query = BaseQuery<'topics', 'tp'>;

function project(query: Query) {
  return query.select(['tp.id', 'tp.name', 'tp.status', 'tp.billable', 'tp.color', 'tp.created_at', 'tp.updated_at']);
}

function applyFilters(query: Query, filters: Record<string, unknown>) {
  let q = query;
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where('tp.status', 'in', statuses);
  if (filters.q !== undefined) q = q.where('tp.name', 'ilike', likeContains(filters.q as string));
  return q;
}

export function listTopics(ctx: Ctx, params: object) {
  return listPage<TopicRecord>(ctx, {
    listId: 'topics',
    params,
    options: TOPIC_LIST_OPTIONS,
    idColumn: 'tp.id',
    project,
    base: (filters) => applyFilters(topics.base(ctx), filters),
  });
}

export async function findTopic(ctx: Ctx, id: number): Promise<TopicRecord | undefined> {
  return project(topics.base(ctx).where('tp.id', '=', id)).executeTakeFirst() as Promise<TopicRecord | undefined>;
}
