import pg from 'pg';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type { DB } from './schema.ts';

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** Either the pool-backed instance or an open transaction: repositories accept both. */
export type Executor = Db | Tx;

// int8 (bigint) ids and counts fit in a JS number for our sizes; numeric stays text (exact money).
pg.types.setTypeParser(20, (value: string) => Number(value));
// Timestamps leave the database as ISO 8601 UTC with a Z, the form the API answers with.
const toIso = (value: string) => new Date(value).toISOString();
pg.types.setTypeParser(1184, toIso); // timestamptz
pg.types.setTypeParser(1114, (value: string) => new Date(`${value}Z`).toISOString()); // timestamp (UTC by convention)
// `date` columns stay plain YYYY-MM-DD text rather than becoming local-midnight Dates.
pg.types.setTypeParser(1082, (value: string) => value);

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function openDatabase(url: string, options: { max?: number; applicationName?: string } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    application_name: options.applicationName ?? 'service-api',
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool, close: () => db.destroy() };
}
