import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry as MetricRegistry } from 'prom-client';
import type { Db } from '../db/database.ts';
import type { IdempotencyOutcomes } from './idempotency.ts';
import type { KeyCache } from './key-cache.ts';
import type { Readings, ServiceModule } from './modules.ts';

/**
 * One scrape's database readings answer every scrape for this long (as GET /health's probe does), so a flood of
 * scrapes costs the database one round of bounded reads a second, not one per scrape.
 */
export const READINGS_REUSE_MS = 1000;
/** Latency buckets in seconds: most answers take milliseconds; reports and exports take seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** The route label of a request no route matched: the raw URL would make a label per guessed path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What this process measures and serves at GET /metrics (decision 0059); each process has its own. */
export interface Metrics {
  registry: MetricRegistry;
}

export interface MetricSources {
  pool: pg.Pool;
  db: Db;
  modules: readonly ServiceModule[];
  /** Server only: the auth caches and the idempotency outcomes of this process. */
  caches?: { keys: KeyCache<unknown>; sessions: KeyCache<unknown> } | undefined;
  idempotency?: IdempotencyOutcomes | undefined;
}

/** The last read while fresh, else the one running, else a new one; a failed read is not kept. */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at >= READINGS_REUSE_MS) {
      const value = read();
      const entry = { at: Date.now(), value };
      last = entry;
      value.then(
        () => (entry.at = Date.now()),
        () => last === entry && (last = undefined),
      );
    }
    return last.value;
  };
}

/**
 * A module's gauges, all filled from its one (shared) read. A read that fails (database down) leaves the labelled
 * ones without samples and sets the others to NaN: prom-client would show an unset one as 0, which reads as "no lag".
 */
function moduleGauges(registry: MetricRegistry, db: Db, readings: Readings): void {
  const read = sharedRead(() => readings.read(db));
  for (const spec of readings.gauges) {
    const labelled = (spec.labelNames ?? []).length > 0;
    new Gauge({
      name: spec.name,
      help: spec.help,
      labelNames: [...(spec.labelNames ?? [])],
      registers: [registry],
      async collect() {
        this.reset();
        const values = await read().catch(() => undefined);
        if (!values && !labelled) this.set(Number.NaN);
        for (const { labels, value } of values?.[spec.name] ?? []) this.set(labels ?? {}, value);
      },
    });
  }
}

/** pg's own counters, read at scrape time: connections open, idle and in use, and callers queued for one. */
function poolGauges(registry: MetricRegistry, pool: pg.Pool): void {
  new Gauge({
    name: 'svc_db_pool_connections',
    help: 'Connections of this process pool to PostgreSQL, by state (idle, in_use)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: 'svc_db_pool_max',
    help: 'Connections this process pool may open at most',
    registers: [registry],
    collect() {
      this.set(pool.options.max);
    },
  });
  new Gauge({
    name: 'svc_db_pool_waiting',
    help: 'Queries of this process waiting for a free pool connection',
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

/** Counters kept as plain numbers where they are counted (no metrics code on those paths), copied at scrape time. */
function hitCounters(registry: MetricRegistry, sources: MetricSources): void {
  const { caches, idempotency } = sources;
  if (caches)
    new Counter({
      name: 'svc_key_cache_lookups_total',
      help: 'Lookups of the in-process key and session caches, by cache (keys, sessions) and result (hit, miss)',
      labelNames: ['cache', 'result'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [cache, counts] of Object.entries(caches))
          for (const result of ['hit', 'miss'] as const) this.inc({ cache, result }, counts.lookups[result]);
      },
    });
  if (idempotency)
    new Counter({
      name: 'svc_idempotency_requests_total',
      help: 'Requests with an Idempotency-Key, by outcome (first: ran; replayed: stored answer sent; refused)',
      labelNames: ['outcome'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [outcome, count] of Object.entries(idempotency)) this.inc({ outcome }, count);
      },
    });
}

/** The registry of one process: process and Node figures (prom-client's defaults), its pool, the modules' backlog. */
export function createMetrics(sources: MetricSources): Metrics {
  const registry = new MetricRegistry();
  collectDefaultMetrics({ register: registry });
  poolGauges(registry, sources.pool);
  hitCounters(registry, sources);
  for (const module of sources.modules) if (module.readings) moduleGauges(registry, sources.db, module.readings);
  return { registry };
}

/**
 * Every answer of this app, by method, route pattern (never the raw URL: the labels stay bounded) and status.
 * onResponse runs after the answer is sent, so the measuring costs the caller nothing.
 */
export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  const labelNames = ['method', 'route', 'status'];
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames,
    registers: [metrics.registry],
  });
  const latency = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time from request to answer sent, by method, route pattern and status',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });
}
