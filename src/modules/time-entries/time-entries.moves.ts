import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { nextStamp } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';

/** An entry as a move between tasks sees it (reclaims): its task, its length and whether it is still live. */
export interface MovableEntry {
  id: number;
  task_id: number;
  seconds: number;
  live: boolean;
}

/**
 * Time entries, locked until commit: the live ones of `taskId` (all, or only `ids`), or with `taskId`
 * undefined the given ids wherever they are now (deleted ones included, flagged by `live`).
 */
export async function lockEntriesToMove(
  ctx: Ctx,
  ids: readonly number[] | undefined,
  taskId?: number,
): Promise<MovableEntry[]> {
  let query = scoped
    .select(ctx, 'time_entries', 'e')
    .select([
      'e.id',
      'e.task_id',
      sql<number>`coalesce(e.duration, floor(extract(epoch from e."end" - e.start)), 0)::int`.as('seconds'),
      sql<boolean>`e.deleted_at is null`.as('live'),
    ])
    .orderBy('e.id')
    .forUpdate();
  if (ids !== undefined) query = query.where('e.id', '=', sql<number>`any(${[...ids]}::int[])`);
  if (taskId !== undefined) query = query.where('e.task_id', '=', taskId).where('e.deleted_at', 'is', null);
  return query.execute();
}

/** Moves entries to a task; their updated_at moves on, so their ETags change. */
export async function moveEntries(ctx: Ctx, ids: readonly number[], taskId: number): Promise<void> {
  if (ids.length === 0) return;
  await scoped
    .update(ctx, 'time_entries')
    .set({ task_id: taskId, updated_at: nextStamp() })
    .where('id', '=', sql<number>`any(${[...ids]}::int[])`)
    .execute();
}
