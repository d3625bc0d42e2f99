import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import type { ClaimedJob, JobHandler, JobServices } from '../../platform/modules.ts';
import { systemActor } from '../../platform/system-actor.ts';
import * as repo from './jobs.repository.ts';

/** Thrown by a handler that stopped between steps because its process is shutting down. */
export class Released extends Error {}

/** Thrown when the key that started a job, or its company, may no longer run it: the job fails with the reason. */
export class Refused extends Error {}

/** Thrown by a handler whose attempt failed for a passing reason: the job goes back to the queue until delayMs from now. */
export class RetryLater extends Error {
  readonly delayMs: number;
  constructor(message: string, delayMs: number) {
    super(message);
    this.delayMs = delayMs;
  }
}

/** Thrown by a handler that gives up for a reason its caller should read (shown by GET /jobs/{id} as `error`). */
export class JobFailed extends Error {}

const GONE = 'the API key (or the member) that started this job no longer exists';

/**
 * Throws Refused unless the job's key and company still pass the checks a request would (revoked, expired,
 * rotated past its grace, member inactive, plan or subscription lapsed). Handlers call it at the start of
 * each chunk's transaction, so a chunk is not applied once the key or the company has lost the right.
 */
export async function assertMayRun(ctx: Ctx, job: ClaimedJob): Promise<void> {
  const actor = await repo.actorOfJob(ctx.db, job);
  if (!actor) throw new Refused(GONE);
  if (actor.refusal) throw new Refused(actor.refusal);
}

/** Well inside the stale limit, so a slow step never looks like a dead process. */
const HEARTBEAT_MS = 15_000;

// Only reasons written for the caller reach GET /jobs/{id}; anything else (a database error) stays internal.
const describe = (error: unknown) =>
  error instanceof Refused || error instanceof JobFailed || error instanceof RetryLater
    ? error.message
    : 'the job stopped on an internal error';

/**
 * Runs one claimed job to its end in the rights of the key that started it. A job taken over by another
 * runner is left to it; one stopped by shutdown goes back to the queue with its progress.
 */
export async function runClaimed(
  db: Executor,
  job: ClaimedJob,
  handler: JobHandler,
  signal?: AbortSignal,
  services?: JobServices,
): Promise<void> {
  const found = await repo.actorOfJob(db, job);
  const { refusal, ...actor } = found ?? { refusal: GONE, ...(await systemActor(db, job.company_id))! };
  const ctx: Ctx = { ...actor, db, requestId: `job-${job.id}` };
  const beat = setInterval(() => void repo.heartbeat(ctx, job.id).catch(() => undefined), HEARTBEAT_MS).unref();
  try {
    // Checked when claimed (queued, or resumed after its process died), and again by the handler per chunk.
    if (refusal) throw new Refused(refusal);
    await handler(ctx, job, signal, services);
    await repo.markDone(ctx, job.id, 'finished');
  } catch (error) {
    if (error instanceof repo.LostClaim) return;
    if (error instanceof Released) await repo.release(ctx, job.id).catch(() => undefined);
    else if (error instanceof RetryLater)
      await repo.retryLater(ctx, job.id, error.message, error.delayMs).catch(() => undefined);
    else await repo.markDone(ctx, job.id, 'failed', describe(error)).catch(() => undefined);
  } finally {
    clearInterval(beat);
  }
}

/** Starts a just-queued job at once in this process, unless a poller has already claimed it. */
export async function kickJob(
  db: Executor,
  companyId: string,
  id: number,
  handler: JobHandler,
  services?: JobServices,
): Promise<void> {
  const job = await repo.claimQueued(db, companyId, id).catch(() => undefined);
  if (job) await runClaimed(db, job, handler, undefined, services);
}
