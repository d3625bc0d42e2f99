import { sql, type RawBuilder } from 'kysely';
import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { taskVisible } from '../../platform/visibility.ts';
import { TASK_RELATION_LIST_OPTIONS, type TaskRelationRecord } from './task-relations.schemas.ts';

const COLUMNS = ['r.id', 'r.task_id', 'r.depends_on_id', 'r.created_at', 'r.updated_at'] as const;

/** The task is live and the acting person sees it. */
function taskShown(ctx: Ctx, taskIdRef: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from tasks lt where lt.company_id = ${ctx.companyId} and lt.id = ${sql.ref(taskIdRef)}
    and lt.deleted_at is null and ${taskVisible(ctx, 'lt')})`;
}

/** A relation shows while both of its tasks are live and visible. */
function base(ctx: Ctx) {
  return ctx.db.selectFrom('task_relations as r').where('r.company_id', '=', ctx.companyId).where('r.deleted_at', 'is', null)
    .where(taskShown(ctx, 'r.task_id')).where(taskShown(ctx, 'r.depends_on_id'));
}

function applyFilters(query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  let q = query;
  if (filters.task_id !== undefined) q = q.where('r.task_id', '=', filters.task_id as number);
  if (filters.depends_on_id !== undefined) q = q.where('r.depends_on_id', '=', filters.depends_on_id as number);
  return q;
}

export async function listTaskRelations(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'task-relations', params, TASK_RELATION_LIST_OPTIONS);
  return paginate<TaskRelationRecord>(ctx, {
    listId: 'task-relations', base: applyFilters(base(ctx), filters), idColumn: 'r.id', project: ((q: ReturnType<typeof base>) => q.select(COLUMNS)) as never,
    options: TASK_RELATION_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findTaskRelation(ctx: Ctx, id: number): Promise<TaskRelationRecord | undefined> {
  return base(ctx).where('r.id', '=', id).select(COLUMNS).executeTakeFirst() as Promise<TaskRelationRecord | undefined>;
}

export async function lockTaskRelation(ctx: Ctx, id: number) {
  return base(ctx).where('r.id', '=', id).select('r.id').forUpdate().executeTakeFirst();
}

/** Which of the ids are live tasks the acting person sees. */
export async function shownTaskIds(ctx: Ctx, ids: number[]): Promise<Set<number>> {
  const rows = await ctx.db.selectFrom('tasks as t').select('t.id').where('t.company_id', '=', ctx.companyId).where('t.id', 'in', ids)
    .where('t.deleted_at', 'is', null).where(taskVisible(ctx, 't')).execute();
  return new Set(rows.map((r) => r.id));
}

/** Relation writes of a company run one at a time, so two concurrent inserts cannot close a cycle together. */
export async function serialiseRelationWrites(ctx: Ctx): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`task_relations:${ctx.companyId}`}))`.execute(ctx.db);
}

export async function findLive(ctx: Ctx, taskId: number, dependsOnId: number) {
  return ctx.db.selectFrom('task_relations').select('id').where('company_id', '=', ctx.companyId).where('task_id', '=', taskId)
    .where('depends_on_id', '=', dependsOnId).where('deleted_at', 'is', null).executeTakeFirst();
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
      join tasks t on t.company_id = r.company_id and t.id = r.depends_on_id and t.deleted_at is null
      where r.company_id = ${ctx.companyId} and r.deleted_at is null)
    select exists (select 1 from reach where id = ${to}) as found`.execute(ctx.db);
  return result.rows[0]?.found === true;
}

export async function insertTaskRelation(ctx: Ctx, taskId: number, dependsOnId: number): Promise<number> {
  const row = await ctx.db.insertInto('task_relations').values({ company_id: ctx.companyId, task_id: taskId, depends_on_id: dependsOnId })
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function softDeleteTaskRelation(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'task_relations', id);
}
