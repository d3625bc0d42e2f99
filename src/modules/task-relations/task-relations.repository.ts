import type { TaskRelationListParams } from './task-relations.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { tenantTable, type BaseQuery, tenant, lockCompanyScope } from '../../platform/tenant-table.ts';
import { TASK_RELATION_LIST_OPTIONS, type TaskRelationRecord } from './task-relations.schemas.ts';
import { firstRecord } from '../../platform/sql.ts';
import { liveTaskSql } from '../tasks/index.ts';

export const taskRelations = tenantTable('task_relations', { alias: 'r', softDelete: true });
type Query = BaseQuery<'task_relations', 'r'>;

const project = (query: Query) =>
  query.select(['r.id', 'r.task_id', 'r.depends_on_id', 'r.created_at', 'r.updated_at']);

/** A relation shows while both of its tasks are live and visible (the tasks' own condition). */
function shown(ctx: Ctx): Query {
  return taskRelations.base(ctx).where(liveTaskSql(ctx, 'r.task_id')).where(liveTaskSql(ctx, 'r.depends_on_id'));
}

function applyFilters(query: Query, filters: ListFilters<TaskRelationListParams>) {
  let q = query;
  if (filters.task_id !== undefined) q = q.where('r.task_id', '=', filters.task_id);
  if (filters.depends_on_id !== undefined) q = q.where('r.depends_on_id', '=', filters.depends_on_id);
  return q;
}

export function listTaskRelations(ctx: Ctx, params: TaskRelationListParams) {
  return listPage<TaskRelationRecord, TaskRelationListParams>(ctx, {
    listId: 'task-relations',
    params,
    options: TASK_RELATION_LIST_OPTIONS,
    idColumn: 'r.id',
    project,
    base: (filters) => applyFilters(shown(ctx), filters),
  });
}

export async function findTaskRelation(ctx: Ctx, id: number): Promise<TaskRelationRecord | undefined> {
  return firstRecord<TaskRelationRecord>(project(shown(ctx).where('r.id', '=', id)));
}

/** Locks a relation that shows (both tasks live and visible); undefined otherwise. */
export async function lockTaskRelation(ctx: Ctx, id: number) {
  return shown(ctx).where('r.id', '=', id).select('r.id').forUpdate().executeTakeFirst();
}

/** Relation writes of a company run one at a time, so two concurrent inserts cannot close a cycle together. */
export async function serialiseRelationWrites(ctx: Ctx): Promise<void> {
  await lockCompanyScope(ctx, 'task_relations');
}

/** The live relation between the two tasks, whether or not the acting person sees both. */
export async function findLive(ctx: Ctx, taskId: number, dependsOnId: number) {
  return taskRelations
    .base(ctx)
    .select('r.id')
    .where('r.task_id', '=', taskId)
    .where('r.depends_on_id', '=', dependsOnId)
    .executeTakeFirst();
}

/**
 * Whether `from` already depends, directly or through other live relations between live tasks,
 * on `to`; then "to depends on from" would close a cycle. Visibility does not apply: the graph is the company's.
 */
export async function dependsTransitively(ctx: Ctx, from: number, to: number): Promise<boolean> {
  const result = await sql<{ found: boolean }>`with recursive reach(id) as (
      select ${from}::int
      union
      select r.depends_on_id from task_relations r join reach on r.task_id = reach.id
      where ${tenant(ctx, 'r')} and r.deleted_at is null and ${liveTaskSql(ctx, 'r.depends_on_id', false)})
    select exists (select 1 from reach where id = ${to}) as found`.execute(ctx.db);
  return result.rows[0]?.found === true;
}
