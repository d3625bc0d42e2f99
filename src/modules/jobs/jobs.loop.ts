import type { Executor } from '../../db/database.ts';
import type { Log } from '../../platform/log.ts';
import type { JobHandler, JobServices } from '../../platform/modules.ts';
import { claimNext } from './jobs.repository.ts';
import { runClaimed } from './jobs.runner.ts';

/** The job types a runner runs (and so claims), by type: registry.jobs. */
export type JobHandlers = Readonly<Record<string, JobHandler>>;

const POLL_MS = 5_000;

/** One poll: claims and runs queued and abandoned jobs of the handled types until none is left (or stopping). Answers the job ids it ran. */
export async function runJobsOnce(
  db: Executor,
  handlers: JobHandlers,
  signal?: AbortSignal,
  services?: JobServices,
): Promise<number[]> {
  const ran: number[] = [];
  while (!signal?.aborted) {
    const job = await claimNext(db, Object.keys(handlers));
    if (!job) break;
    await runClaimed(db, job, handlers[job.type]!, signal, services);
    ran.push(job.id);
  }
  return ran;
}

export interface JobRunner {
  /** Stops polling; a job in progress stops after its current chunk and goes back to the queue. */
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  db: Executor;
  log: Log;
  handlers: JobHandlers;
  pollMs?: number;
  /** Handed to every handler (the mail settings, for one). */
  services?: JobServices;
}

/**
 * Polls for jobs every few seconds: queued ones, and running ones whose process died. Any number of
 * processes may run it against one database.
 */
export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, log, handlers } = options;
  const shutdown = new AbortController();
  let wake = () => {};
  const cycle = async () => {
    const ran = await runJobsOnce(db, handlers, shutdown.signal, options.services);
    if (ran.length > 0) log.info({ jobs: ran }, 'job runner: ran jobs');
  };
  const loop = async () => {
    while (!shutdown.signal.aborted) {
      await cycle().catch((error: Error) => log.error({ err: error.message }, 'job runner: cycle failed'));
      if (shutdown.signal.aborted) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs ?? POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  const running = loop();
  return {
    stop: async () => {
      shutdown.abort();
      wake();
      await running;
    },
  };
}
