import type { Config } from '../config.ts';

/** The request pool's size when SVC_DB_POOL_SIZE is unset: a server answers requests, a worker only runs jobs. */
const DEFAULT_POOL = { server: 20, worker: 4 } as const;

export type ProcessKind = keyof typeof DEFAULT_POOL;

export const poolSizeOf = (config: Config, kind: ProcessKind): number => config.pool.size ?? DEFAULT_POOL[kind];

/** Webhook deliveries use a pool of their own: two connections per attempt in flight (claim and outcome), and two spare. */
export const deliveryPoolSize = (config: Config): number => config.webhooks.concurrency * 2 + 2;

export interface ConnectionBudget {
  total: number;
  parts: Record<string, number>;
}

/**
 * The most connections one process holds at once (decision 0060), so that an operator can size the server's
 * max_connections (or PgBouncer's pool) for N servers and M workers. The start-up log prints it.
 */
export function connectionBudget(config: Config, kind: ProcessKind, deliveries: boolean): ConnectionBudget {
  const parts: Record<string, number> = { 'requests and jobs': poolSizeOf(config, kind) };
  if (deliveries && config.webhooks.enabled) parts['webhook deliveries'] = deliveryPoolSize(config);
  // One LISTEN connection evicts the key and session caches (servers only).
  if (kind === 'server' && config.keyCache) parts['cache listener'] = 1;
  return { total: Object.values(parts).reduce((sum, n) => sum + n, 0), parts };
}

export const describeBudget = (budget: ConnectionBudget): string =>
  `database connections: at most ${budget.total} (` +
  Object.entries(budget.parts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ') +
  ')';
