import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped, tenant } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';
import { TASK_PLAIN_COLUMNS, taskAssigneeIds, taskTrackedSeconds } from './tasks.derived.ts';

// What other modules ask about tasks, answered here so that the tasks table is read in its own module: SQL
// conditions for their statements (one statement stays one) and counts.

/**
 * The task `idRef` names is live, and (with `visible`, the default) the acting person sees it: a condition
 * for a statement of another module, e.g. a relation between two tasks shows while both do.
 */
export function liveTaskSql(ctx: Ctx, idRef: string, visible = true): RawBuilder<boolean> {
  const seen = visible ? rowVisible(ctx, 'tasks', 'lt') : sql<boolean>`true`;
  // tenant: deliberate SQL
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
