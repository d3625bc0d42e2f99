import type { Executor } from '../db/database.ts';
import type { Config } from '../config.ts';
import type { Connection } from '../db/connect.ts';
import type { Registry } from '../platform/modules.ts';
import { startJobRunner } from '../modules/jobs/index.ts';
import type { Log } from './log.ts';
import { periodicTasks, startPeriodic } from './periodic.ts';
import { startDeliveryWorker } from './webhooks/worker.ts';

export { jsonLog, type Log } from './log.ts';
export { warnAboutWebhookConfig } from './webhooks/worker.ts';

export interface BackgroundOptions {
  /** The pool the job runner and the periodic work use. */
  db: Executor;
  /** The webhook delivery worker opens a pool of its own here (sized to its concurrency), and LISTENs directly. */
  connection: Pick<Connection, 'url' | 'directUrl' | 'pooled'>;
  config: Config;
  log: Log;
  registry: Registry;
  /** Whether this process delivers webhooks too. */
  webhooks: boolean;
}

export interface Background {
  /**
   * Stops claiming work: a job in progress goes back to the queue after its current chunk, in-flight
   * deliveries finish (or are released after the answer time-out), a periodic run in progress finishes.
   */
  stop(): Promise<void>;
}

/**
 * Everything a server or `npm run worker` does besides answering requests: background jobs of the types the
 * modules declare, periodic work (the platform's and the modules'), and, when asked, webhook deliveries.
 * Any number of processes may run it against one database.
 */
export function startBackground(options: BackgroundOptions): Background {
  const { db, connection, config, log, registry } = options;
  const deliveries = options.webhooks
    ? startDeliveryWorker({ connection, config, log, shapes: registry.eventShapes })
    : undefined;
  const jobs = startJobRunner({ db, log, handlers: registry.jobs, services: { config } });
  const periodic = startPeriodic({ db, log, tasks: periodicTasks(registry), services: { config } });
  return {
    stop: async () => {
      await Promise.all([deliveries?.stop(), jobs.stop(), periodic.stop()]);
    },
  };
}
