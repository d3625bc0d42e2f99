import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import type { ClaimedJob } from '../../platform/modules.ts';
import { advance, LostClaim, setTargets } from './jobs.repository.ts';
import { assertMayRun, JobFailed, Refused, Released } from './jobs.runner.ts';

/** What one chunk reports: the target ids it could not apply (counted in `failed_count`), and any it skipped. */
export interface ChunkOutcome {
  failed: number[];
  skipped: number[];
}

export interface ChunkedJob {
  /** Target ids per transaction. */
  size: number;
  /** The job's targets, chosen once at its first start and kept on the job row (`target_ids`). */
  select: (ctx: Ctx) => Promise<number[]>;
  /** One chunk's work, in the chunk's transaction (which commits with the job's progress). */
  step: (tx: Ctx, ids: number[]) => Promise<ChunkOutcome | void>;
  /**
   * Extra bookkeeping on the job row, in the same transaction as the progress: after each chunk, for a chunk
   * that rolled back as a whole (all its ids failed), and once with nothing when the targets are fixed.
   */
  record?: (tx: Ctx, outcome: ChunkOutcome) => Promise<void>;
}

const NOTHING: ChunkOutcome = { failed: [], skipped: [] };

/** Errors that end the job (lost to another runner, refused, given up): everything else fails only its chunk. */
const endsJob = (error: unknown) =>
  error instanceof LostClaim || error instanceof Refused || error instanceof JobFailed;

/**
 * The chunk loop every bulk job shares. Targets are fixed on the job row at its first start; then, from the
 * committed progress on, each chunk runs in one transaction with the job's progress, after checking that the
 * job's key and company may still run it. So a job resumed after its process died carries on after its last
 * committed chunk, and a chunk that fails rolls back alone, counted as failed, and the job goes on. A process
 * shutting down stops between chunks (Released). Steps must be idempotent per target: two runners racing on
 * one chunk is the one case where a chunk runs twice (the loser's progress update fails and rolls it back).
 */
export async function runChunkedJob(
  ctx: Ctx,
  claimed: ClaimedJob,
  spec: ChunkedJob,
  signal?: AbortSignal,
): Promise<void> {
  let job = claimed;
  let ids = job.target_ids;
  if (ids === null) {
    const selected = await spec.select(ctx);
    await inTransaction(ctx, async (tx) => {
      await setTargets(tx, job.id, selected);
      // Recorded from the start: an empty list then means none, not "not recorded".
      await spec.record?.(tx, NOTHING);
    });
    ids = selected;
    job = { ...job, processed_count: 0, failed_count: 0 };
  }
  let processed = job.processed_count;
  let failed = job.failed_count ?? 0;
  for (let start = processed; start < ids.length; start += spec.size) {
    if (signal?.aborted) throw new Released();
    const chunk = ids.slice(start, start + spec.size);
    const next = processed + chunk.length;
    try {
      const outcome = await inTransaction(ctx, async (tx) => {
        await assertMayRun(tx, job);
        const result = (await spec.step(tx, chunk)) ?? NOTHING;
        await advance(tx, job.id, processed, next, failed + result.failed.length);
        await spec.record?.(tx, result);
        return result;
      });
      failed += outcome.failed.length;
    } catch (error) {
      if (endsJob(error)) throw error;
      failed += chunk.length;
      await inTransaction(ctx, async (tx) => {
        await advance(tx, job.id, processed, next, failed);
        await spec.record?.(tx, { failed: chunk, skipped: [] });
      });
    }
    processed = next;
  }
}
