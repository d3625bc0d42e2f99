import type { Executor } from '../db/database.ts';
import { purgeExpiredEvents } from '../platform/events.ts';
import { purgeExpiredIdempotency } from '../platform/idempotency.ts';
import type { JobServices, PeriodicTask, Registry } from '../platform/modules.ts';
import type { Log } from './log.ts';

const MINUTE = 60_000;

type Outcome = Awaited<ReturnType<PeriodicTask['run']>>;

/** The platform's own periodic work, run next to what the modules declare. */
export const PLATFORM_PERIODIC: readonly PeriodicTask[] = [
  { name: 'idempotency-purge', everyMs: 10 * MINUTE, run: (db) => purgeExpiredIdempotency(db) },
  // A batch per run; the events' delivery rows and log go with them.
  { name: 'event-retention', everyMs: MINUTE, run: (db) => purgeExpiredEvents(db) },
];

/** Everything a server or worker repeats: the platform's tasks, then the modules' (registry.periodic). */
export const periodicTasks = (registry: Registry): PeriodicTask[] => [...PLATFORM_PERIODIC, ...registry.periodic];

/** Runs each task once, in order, as of `now` (tests, one-off runs); a failure is thrown. Answers each task's outcome by name. */
export async function runPeriodicOnce(
  db: Executor,
  tasks: readonly PeriodicTask[],
  now = new Date(),
  services?: JobServices,
): Promise<Record<string, Outcome>> {
  const outcomes: Record<string, Outcome> = {};
  for (const task of tasks) outcomes[task.name] = await task.run(db, now, services);
  return outcomes;
}

/** Whether an outcome reports work done (or failed): counts above zero are worth a log line, quiet runs are not. */
function worthLogging(outcome: Outcome): boolean {
  if (typeof outcome === 'number') return outcome > 0;
  return outcome !== undefined && Object.values(outcome).some((count) => count > 0);
}

export interface PeriodicRunner {
  /** Stops scheduling; a run in progress finishes first. */
  stop(): Promise<void>;
}

/**
 * Runs every task at start and then every `everyMs` (counted from the start of its previous run; a slow
 * run is never overlapped by the next). Errors are logged and the task runs again on schedule.
 */
export function startPeriodic(options: {
  db: Executor;
  log: Log;
  tasks: readonly PeriodicTask[];
  services?: JobServices;
}): PeriodicRunner {
  const { db, log, services } = options;
  const shutdown = new AbortController();
  const runOnce = async (task: PeriodicTask) => {
    try {
      const outcome = await task.run(db, new Date(), services);
      if (worthLogging(outcome))
        log.info(
          { task: task.name, ...(typeof outcome === 'number' ? { count: outcome } : outcome) },
          `periodic task ${task.name}: done`,
        );
    } catch (error) {
      log.error({ task: task.name, err: (error as Error).message }, `periodic task ${task.name} failed`);
    }
  };
  const loop = async (task: PeriodicTask) => {
    while (!shutdown.signal.aborted) {
      const started = Date.now();
      await runOnce(task);
      await pause(Math.max(0, started + task.everyMs - Date.now()), shutdown.signal);
    }
  };
  const loops = options.tasks.map(loop);
  return {
    stop: async () => {
      shutdown.abort();
      await Promise.all(loops);
    },
  };
}

/** Resolves after ms, or at once when the signal aborts; does not keep the process alive on its own. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms).unref();
    signal.addEventListener('abort', done, { once: true });
  });
}
