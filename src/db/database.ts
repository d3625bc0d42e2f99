import { createHash } from 'node:crypto';
import pg from 'pg';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type { DB } from './schema.ts';

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** Either the pool-backed instance or an open transaction: repositories accept both. */
export type Executor = Db | Tx;

// int8 (bigint) ids and counts fit in a JS number for our sizes; numeric stays text (exact money).
pg.types.setTypeParser(20, (value: string) => Number(value));
/** PostgreSQL's ISO DateStyle output of timestamptz: `2026-11-23 10:00:00.123456+00`, `+05:30`, `-03:30:45`. */
const PG_TIMESTAMPTZ =
  /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?$/;

/**
 * Timestamps leave the database as ISO 8601 UTC with a Z, the form the API answers with. Read field by
 * field: `new Date(text)` takes V8's slow legacy parser for this format (4-6% of a list request's CPU).
 * Anything else (years before 100, BC, infinity) goes the general way.
 */
export function toIso(value: string): string {
  const m = PG_TIMESTAMPTZ.exec(value);
  if (!m || Number(m[1]) < 100) return new Date(value).toISOString();
  const ms = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  const offset = (Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0)) * (m[8] === '-' ? -1 : 1);
  const utc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, ms) - offset * 1000;
  return new Date(utc).toISOString();
}
pg.types.setTypeParser(1184, toIso); // timestamptz
pg.types.setTypeParser(1114, (value: string) => new Date(`${value}Z`).toISOString()); // timestamp (UTC by convention)
// `date` columns stay plain YYYY-MM-DD text rather than becoming local-midnight Dates.
pg.types.setTypeParser(1082, (value: string) => value);

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** Statements a connection keeps prepared; beyond this (e.g. ever-new IN-list shapes) queries run unnamed. */
const MAX_PREPARED_PER_CONNECTION = 1000;

/** Statement names by SQL text, shared by all connections: a hash per query was 2% of a list request's CPU. */
const names = new Map<string, string>();
const NAMES_KEPT = 5000;
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `k${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    if (names.size >= NAMES_KEPT) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans each call. Naming a statement by a
 * hash of its text lets each connection prepare it once and reuse the plan (measured here: a bare
 * get-by-id went from 2,800 to 4,800 req/s).
 */
function prepareStatements(client: pg.PoolClient): void {
  const prepared = new Set<string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (
    text: unknown,
    values?: unknown,
    callback?: unknown,
  ) => {
    if (typeof text !== 'string' || !Array.isArray(values)) return query(text, values, callback);
    // pool.query() passes a callback: it is named too, so raw pool users (the bench floors) prepare like Kysely.
    const tail = typeof callback === 'function' ? [callback] : [];
    const name = statementName(text);
    if (!prepared.has(name)) {
      if (prepared.size >= MAX_PREPARED_PER_CONNECTION) return query(text, values, ...tail);
      prepared.add(name);
    }
    return query({ name, text, values }, ...tail);
  };
}

export interface DatabaseOptions {
  max?: number;
  /**
   * Connections go through a transaction pooler (PgBouncer): a server connection serves other clients between
   * transactions, so nothing is kept on it: statements are sent unnamed and session settings are left to the
   * pooler's connect_query or the role (decision 0060).
   */
  pooled?: boolean;
  /** Longest a query waits for a free connection before it fails (milliseconds; unset: as long as it takes). */
  waitMs?: number;
  applicationName?: string;
  /** Longest a statement may run on these connections (milliseconds; 0: no limit). Unset: the server's default. */
  statementTimeoutMs?: number;
  /** What a big read (a report) raises its transaction's limit to; kept as svc.report_statement_timeout. */
  reportStatementTimeoutMs?: number;
}

/** The session settings every new connection starts with (decision 0046), or undefined when there are none. */
export function sessionSettings(options: DatabaseOptions): string | undefined {
  const statements: string[] = [];
  const ms = (value: number) => String(Math.max(0, Math.trunc(value)));
  if (options.statementTimeoutMs !== undefined)
    statements.push(`set statement_timeout = ${ms(options.statementTimeoutMs)}`);
  if (options.reportStatementTimeoutMs !== undefined)
    statements.push(`set svc.report_statement_timeout = ${ms(options.reportStatementTimeoutMs)}`);
  return statements.length === 0 ? undefined : statements.join('; ');
}

export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    ...(options.waitMs ? { connectionTimeoutMillis: options.waitMs } : {}),
    application_name: options.applicationName ?? 'service-api',
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Queued on the new connection ahead of whatever it was opened for (a client runs its queries in order), as a
  // session setting rather than a startup parameter, which connection poolers refuse.
  const settings = options.pooled ? undefined : sessionSettings(options);
  if (settings) pool.on('connect', (client) => void client.query(settings).catch(() => undefined));
  if (!options.pooled) pool.on('connect', prepareStatements);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool, close: () => db.destroy() };
}
