import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK = 7_302_114;

export async function listMigrations(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
}

/**
 * A database migrated by a later release carries migrations this one does not know: starting on it would run old
 * code on a newer schema, so the start stops here and says what to do (migrations only go forward).
 */
function refuseNewerDatabase(done: Set<string>, known: readonly string[]): void {
  const files = new Set(known);
  const unknown = [...done].filter((name) => !files.has(name)).sort();
  if (unknown.length === 0) return;
  throw new Error(
    `this database was migrated by a newer release of the service (it has ${unknown.length} migration(s) this ` +
      `release does not know, the last ${unknown.at(-1)}; this release's last is ${known.at(-1)}). Start that ` +
      'release or a later one; going back needs a backup made before the upgrade',
  );
}

/**
 * Applies the plain, ordered SQL files not yet applied, each in its own transaction.
 * An advisory lock makes concurrent starts (several instances, CLI) wait instead of racing.
 * `only`: apply just these (a restore first rebuilds the schema its backup was made at, then migrates forward).
 */
export async function migrate(url: string, only?: ReadonlySet<string>): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    const known = await listMigrations();
    refuseNewerDatabase(done, known);
    const applied: string[] = [];
    for (const file of known) {
      if (done.has(file) || (only && !only.has(file))) continue;
      const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(error as Error).message}`);
      }
      applied.push(file);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

export interface AppliedMigration {
  /** The file name, e.g. `0105_legacy_webhook_deliveries.sql`. */
  name: string;
  /** Its number, the schema version. */
  number: number;
  applied_at: string;
}

/** The latest migration applied to this database (the operator's status view); undefined on an empty one. */
export async function latestMigration(db: Kysely<DB>): Promise<AppliedMigration | undefined> {
  const { rows } = await sql<Omit<AppliedMigration, 'number'>>`select name, applied_at from schema_migrations
    order by name desc limit 1`.execute(db);
  const row = rows[0];
  return row && { ...row, number: Number.parseInt(row.name, 10) };
}
