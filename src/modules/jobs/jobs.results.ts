import type { Ctx } from '../../platform/context.ts';
import { nextStamp } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';

/**
 * A one-step job's outcome (e.g. the reference-data sync's summary): the result stored on the running job and
 * everything it collected counted as processed; false when the job is no longer running here.
 */
export async function recordJobResult(ctx: Ctx, jobId: number, result: object, total: number): Promise<boolean> {
  const updated = await scoped
    .update(ctx, 'jobs')
    .set({
      result: JSON.stringify(result),
      total_count: total,
      processed_count: total,
      failed_count: 0,
      updated_at: nextStamp(),
    })
    .where('id', '=', jobId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}
