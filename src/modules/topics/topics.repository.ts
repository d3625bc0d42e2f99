import type { TopicListParams } from './topics.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { firstRecord, likeContains } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { TOPIC_LIST_OPTIONS, type TopicRecord } from './topics.schemas.ts';

export const topics = tenantTable('topics', { alias: 'tp', softDelete: true });
type Query = BaseQuery<'topics', 'tp'>;

function project(query: Query) {
  // The columns admit more than the record: status is checked to its two values, billable is written 0 or 1 only.
  return query.select((eb) => [
    'tp.id',
    'tp.name',
    eb.ref('tp.status').$castTo<TopicRecord['status']>().as('status'),
    eb.ref('tp.billable').$castTo<TopicRecord['billable']>().as('billable'),
    'tp.color',
    'tp.created_at',
    'tp.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<TopicListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('tp.status', 'in', statuses);
  if (filters.q !== undefined) q = q.where('tp.name', 'ilike', likeContains(filters.q));
  return q;
}

export function listTopics(ctx: Ctx, params: TopicListParams) {
  return listPage<TopicRecord, TopicListParams>(ctx, {
    listId: 'topics',
    params,
    options: TOPIC_LIST_OPTIONS,
    idColumn: 'tp.id',
    project,
    base: (filters) => applyFilters(topics.base(ctx), filters),
  });
}

export async function findTopic(ctx: Ctx, id: number): Promise<TopicRecord | undefined> {
  return firstRecord<TopicRecord>(project(topics.base(ctx).where('tp.id', '=', id)));
}
