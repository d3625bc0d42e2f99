import type { Executor } from '../../db/database.ts';
import type { Log } from '../../webhooks/log.ts';
import { BULK_JOB_TYPE, runBulkJob } from '../tasks/tasks.bulk.ts';
import { extendOccurrenceHorizons, type HorizonResult } from '../tasks/tasks.horizon.ts';
import { pollJobs, type JobHandlers } from './jobs.runner.ts';

/** Every job type a runner knows how to run (and so claims). */
export const JOB_HANDLERS: JobHandlers = { [BULK_JOB_TYPE]: runBulkJob };

const POLL_MS = 5_000;
const MAINTENANCE_MS = 60 * 60 * 1000;

/** One poll cycle: runs every queued job and every running job whose process died. Answers the job ids it ran. */
export function runJobsOnce(db: Executor, signal?: AbortSignal): Promise<number[]> {
  return pollJobs(db, JOB_HANDLERS, signal);
}

/** The periodic maintenance: recurring series extended to their horizon as of `now`. */
export function runMaintenance(db: Executor, now = new Date()): Promise<HorizonResult> {
  return extendOccurrenceHorizons(db, now);
}

export interface JobRunner {
  /** Stops polling; a job in progress stops after its current chunk and goes back to the queue. */
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  db: Executor;
  log: Log;
  pollMs?: number;
  maintenanceMs?: number;
}

/**
 * The background loop of a server or worker process: maintenance at start and then hourly, and a poll for
 * jobs every few seconds. Any number of processes may run it against one database.
 */
export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, log } = options;
  const shutdown = new AbortController();
  let wake = () => {};
  let nextMaintenance = 0;
  const cycle = async () => {
    if (Date.now() >= nextMaintenance) {
      nextMaintenance = Date.now() + (options.maintenanceMs ?? MAINTENANCE_MS);
      const result = await runMaintenance(db);
      if (result.created > 0 || result.failed > 0) log.info({ ...result }, 'recurring tasks: occurrences extended to the horizon');
    }
    const ran = await runJobsOnce(db, shutdown.signal);
    if (ran.length > 0) log.info({ jobs: ran }, 'job runner: ran jobs');
  };
  const loop = async () => {
    while (!shutdown.signal.aborted) {
      await cycle().catch((error: Error) => log.error({ err: error.message }, 'job runner: cycle failed'));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs ?? POLL_MS);
        wake = () => { clearTimeout(timer); resolve(); };
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
