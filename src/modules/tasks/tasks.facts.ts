import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped, tenant } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';
import { TASK_PLAIN_COLUMNS, taskAssigneeIds, taskTrackedSeconds } from './tasks.derived.ts';
import { OPEN_STATUSES } from './tasks.schemas.ts';

// What other modules ask about tasks, answered here so that the tasks table is read in its own module: SQL
// conditions for their statements (one statement stays one) and counts.

/**
 * The task `idRef` names is live, and (with `visible`, the default) the acting person sees it: a condition
 * for a statement of another module, e.g. a relation between two tasks shows while both do.
 */
export function liveTaskSql(ctx: Ctx, idRef: string, visible = true): RawBuilder<boolean> {
  const seen = visible ? rowVisible(ctx, 'tasks', 'lt') : sql<boolean>`true`;
  return sql<boolean>`exists (select 1 from tasks lt where ${tenant(ctx, 'lt')} and lt.id = ${sql.ref(idRef)}
    and lt.deleted_at is null and ${seen})`;
}

/**
 * Live tasks that are not finished or archived (those are history) and carry the workflow role, counted
 * company-wide, whatever the caller may see: what still points at the role.
 */
export async function countOpenTasksWithRole(ctx: Ctx, roleId: number): Promise<number> {
  const row = await scoped
    .select(ctx, 'tasks', 't')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('t.deleted_at', 'is', null)
    .where('t.status', 'not in', ['finished', 'archived'])
    .where(sql<boolean>`t.workflow_role_ids @> array[${roleId}]::int[]`)
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The lean records of the tasks `ids` (whatever the caller may see), by id, as their events carry them. A task
 * just made (`fresh`) has no assignees and no time yet: its record needs no lookups for them.
 */
export function leanTaskRows(ctx: Ctx, ids: readonly number[], fresh: boolean) {
  return scoped
    .select(ctx, 'tasks', 't')
    .select([
      ...TASK_PLAIN_COLUMNS.map((c) => `t.${c}` as const),
      fresh ? sql<number[]>`'{}'::int[]`.as('assignees') : taskAssigneeIds().as('assignees'),
      fresh ? sql<number>`0`.as('tracked_time') : taskTrackedSeconds().as('tracked_time'),
    ])
    .where('t.id', 'in', [...ids])
    .orderBy('t.id')
    .execute();
}

/** (company_id, id, status) of every live task of the company: rows for another module's insert ... select. */
export function liveTaskStatusesSql(ctx: Ctx): RawBuilder<unknown> {
  return sql`select company_id, id, status from tasks where ${tenant(ctx)} and deleted_at is null`;
}

/** A task whose due date has come, as a due-date rule sees it (due_ms: the due instant in milliseconds). */
export interface DueTask {
  id: number;
  due_ms: number;
  due_date: string;
  client_id: number | null;
  project_id: number | null;
  topic_id: number | null;
  type: string;
  status: string;
}

/**
 * Open, non-recurring live tasks due after `since` and up to `until`, by due date then id, at most `limit`,
 * leaving out those `unless` names (a condition on the task aliased t, e.g. the caller's anti-join).
 */
export async function dueOpenTasks(
  ctx: Ctx,
  due: { since: string; until: string },
  unless: RawBuilder<boolean>,
  limit: number,
): Promise<DueTask[]> {
  const rows = await sql<DueTask>`select t.id, (extract(epoch from t.due_date) * 1000)::bigint as due_ms, t.due_date,
      t.client_id, t.project_id, t.topic_id, t.type, t.status
    from tasks t
    where ${tenant(ctx, 't')} and t.deleted_at is null and t.has_due_date = 1
      and t.status in (${sql.join([...OPEN_STATUSES])}) and t.is_recurring = 0
      and t.due_date <= ${due.until} and t.due_date > ${due.since} and not ${unless}
    order by t.due_date, t.id limit ${limit}`.execute(ctx.db);
  return rows.rows;
}
