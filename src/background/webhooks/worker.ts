import pg from 'pg';
import { openDatabase, type Database } from '../../db/database.ts';
import { deliveryPoolSize } from '../../db/pool-budget.ts';
import type { Config } from '../../config.ts';
import type { Connection } from '../../db/connect.ts';
import type { EventShapes } from '../../platform/events.ts';
import type { Resolver } from '../../platform/ssrf.ts';
import { processNext, type EngineDeps } from './engine.ts';
import { createMailer, flushMail } from './mailer.ts';
import { processLegacyNext } from './legacy.ts';
import type { Log } from '../log.ts';

export interface DeliveryWorker {
  /** Stops claiming; in-flight attempts finish (up to graceMs), then are released to the queue. */
  stop(options?: { graceMs?: number }): Promise<void>;
  /** Wakes idle loops at once (new work was queued). */
  wake(): void;
}

export interface WorkerOptions {
  config: Config;
  log: Log;
  /** How each entity's record is shaped in a delivery body (registry.eventShapes). */
  shapes: EventShapes;
  /** Uses this pool (its size must cover 2 x concurrency), or opens its own on the connection's url. */
  db?: Database;
  connection?: Pick<Connection, 'url' | 'directUrl' | 'pooled'>;
  resolve?: Resolver;
}

const HOUSEKEEPING_MS = 60_000;

/** A wakeable sleep: resolves after ms, or at once when wake() is called. */
function sleeper() {
  let waiters: Array<() => void> = [];
  return {
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters = waiters.filter((w) => w !== done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiters.push(done);
      }),
    wake: () => [...waiters].forEach((w) => w()),
  };
}

/**
 * The LISTEN connection: one of the pool's, or behind a transaction pooler (which cannot keep a LISTEN) a direct
 * connection of its own.
 */
async function listenerClient(pool: pg.Pool, directUrl: string | undefined) {
  if (!directUrl) {
    const client = await pool.connect();
    return { client, release: (broken: boolean) => client.release(broken) };
  }
  const client = new pg.Client({ connectionString: directUrl, application_name: 'service-api-webhooks-listen' });
  await client.connect();
  return { client, release: () => void client.end().catch(() => {}) };
}

/** LISTENs for new deliveries; on any trouble it gives up quietly (polling still runs). */
async function listen(pool: pg.Pool, directUrl: string | undefined, onWake: () => void, log: Log): Promise<() => void> {
  try {
    const { client, release: end } = await listenerClient(pool, directUrl);
    let released = false;
    const release = (broken = false) => {
      if (!released) end(broken);
      released = true;
    };
    client.on('notification', onWake);
    client.on('error', () => release(true));
    await client.query('LISTEN webhook_deliveries');
    return () => release(true);
  } catch (error) {
    log.warn({ err: (error as Error).message }, 'webhook worker: LISTEN failed; falling back to polling');
    return () => {};
  }
}

/**
 * Runs the delivery loop: `concurrency` loops that each claim, attempt and record one delivery at
 * a time. Any number of these (in servers and `npm run worker` processes) may share one database.
 */
export function startDeliveryWorker(options: WorkerOptions): DeliveryWorker {
  const { config, log } = options;
  if (!config.webhooks.enabled) {
    log.info({}, 'webhooks are disabled (SVC_WEBHOOKS_ENABLED=false): no deliveries are made');
    return { stop: async () => {}, wake: () => {} };
  }
  const own = options.db
    ? undefined
    : openDatabase(options.connection!.url, {
        max: deliveryPoolSize(config),
        pooled: options.connection!.pooled,
        waitMs: config.pool.waitMs,
        applicationName: 'service-api-webhooks',
      });
  const database = (options.db ?? own)!;
  const shutdown = new AbortController();
  const mailer = createMailer(config);
  const deps: EngineDeps = {
    db: database.db,
    config,
    log,
    shapes: options.shapes,
    resolve: options.resolve,
    mailer,
    signal: shutdown.signal,
  };
  const { sleep, wake } = sleeper();
  let stopping = false;

  const loop = async () => {
    while (!stopping) {
      const step = await processNext(deps).catch((error) => {
        log.error({ err: (error as Error).message }, 'webhook worker: step failed');
        return { worked: false as const, nextDueMs: config.webhooks.pollMs };
      });
      if (!step.worked && !stopping)
        await sleep(Math.min(step.nextDueMs ?? config.webhooks.pollMs, config.webhooks.pollMs));
    }
  };
  // The legacy v1.0 engine's loops share the wake-ups (its rows notify the same channel) and the shutdown.
  const legacyLoop = async () => {
    while (!stopping) {
      const worked = await processLegacyNext(deps).catch((error) => {
        log.error({ err: (error as Error).message }, 'legacy webhook worker: step failed');
        return false;
      });
      if (!worked && !stopping) await sleep(config.webhooks.pollMs);
    }
  };
  // Event retention is periodic work of every server and worker (src/background/periodic.ts), not the delivery loop's.
  const housekeeping = async () => {
    await flushMail(deps.db, mailer, log).catch((error) =>
      log.warn({ err: (error as Error).message }, 'webhook worker: mail flush failed'),
    );
  };
  const directUrl = options.connection?.pooled ? options.connection.directUrl : undefined;
  const listener = listen(database.pool, directUrl, wake, log);
  const timer = setInterval(() => void housekeeping(), HOUSEKEEPING_MS);
  timer.unref();
  void housekeeping();
  const loops = [
    ...Array.from({ length: config.webhooks.concurrency }, loop),
    ...Array.from({ length: Math.min(2, config.webhooks.concurrency) }, legacyLoop),
  ];
  log.info({ concurrency: config.webhooks.concurrency, rate: config.webhooks.rate }, 'webhook delivery worker started');

  return {
    wake,
    stop: async ({ graceMs = config.webhooks.timeoutMs + 1000 } = {}) => {
      stopping = true;
      clearInterval(timer);
      wake();
      const all = Promise.all(loops);
      const grace = setTimeout(() => shutdown.abort(), graceMs);
      await all;
      clearTimeout(grace);
      (await listener)();
      mailer?.close();
      await own?.close();
      log.info({}, 'webhook delivery worker stopped');
    },
  };
}

/** Says loudly that private targets are allowed: fine on a laptop, never in production. */
export function warnAboutWebhookConfig(config: Config, log: Log): void {
  if (config.webhooks.enabled && config.webhooks.allowPrivate) {
    log.warn(
      {},
      'SVC_WEBHOOK_ALLOW_PRIVATE=true: webhooks may target http and private, loopback and link-local addresses (development and tests only)',
    );
  }
}
