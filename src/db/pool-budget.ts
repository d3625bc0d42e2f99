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
  /** Behind a transaction pooler: how many of them go to the server directly (the LISTEN connections). */
  direct?: number;
}

/**
 * The most connections one process holds at once (decision 0060), so that an operator can size the server's
 * max_connections (or the pooler's pool) for N servers and M workers. The start-up log prints it.
 */
export function connectionBudget(
  config: Config,
  kind: ProcessKind,
  deliveries: boolean,
  pooled = false,
): ConnectionBudget {
  const parts: Record<string, number> = { 'requests and jobs': poolSizeOf(config, kind) };
  const delivering = deliveries && config.webhooks.enabled;
  if (delivering) parts['webhook deliveries'] = deliveryPoolSize(config);
  // One LISTEN connection evicts the key and session caches (servers only).
  const cacheListener = kind === 'server' && config.keyCache ? 1 : 0;
  if (cacheListener) parts['cache listener'] = 1;
  const total = Object.values(parts).reduce((sum, n) => sum + n, 0);
  if (!pooled) return { total, parts };
  // Behind a pooler the deliveries' LISTEN leaves their pool for a direct connection of its own.
  if (delivering) parts['webhook listener'] = 1;
  return { total: total + (delivering ? 1 : 0), parts, direct: cacheListener + (delivering ? 1 : 0) };
}

export function describeBudget(budget: ConnectionBudget): string {
  const parts = Object.entries(budget.parts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  const direct = budget.direct === undefined ? '' : `; ${budget.direct} of them direct, the rest through the pooler`;
  return `database connections: at most ${budget.total} (${parts}${direct})`;
}
