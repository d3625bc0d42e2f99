// What scripts/test.ts and scripts/gen-schema.ts share: a PostgreSQL server for the run (the embedded one
// in a throw-away directory, or an existing server) and a freshly migrated database on it.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';

export interface RunServer {
  /** Any database on the server; use withDatabase to pick one. */
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** `serverUrl` when given; otherwise an embedded server whose data directory is removed on stop. */
export async function startServer(serverUrl?: string): Promise<RunServer> {
  if (serverUrl) return { url: serverUrl, embedded: false, stop: async () => {} };
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'svc-test-'));
  try {
    await chmod(tmp, 0o755); // the postgres system user must reach the data directory
    const server = await startEmbedded({ dataDir: tmp });
    return {
      url: server.url,
      embedded: true,
      stop: async () => {
        await server.stop();
        await rm(tmp, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** Creates `database` on the server and applies every migration to it; returns its URL. */
export async function createMigrated(serverUrl: string, database: string): Promise<string> {
  await admin(withDatabase(serverUrl, 'postgres'), (c) => c.query(`create database "${database}"`));
  const url = withDatabase(serverUrl, database);
  await migrate(url);
  return url;
}

/** Drops `names` and, with `like`, every database whose name matches that pattern. */
export async function dropDatabases(adminUrl: string, names: string[], like?: string): Promise<void> {
  await admin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname = any($1) or datname like $2`,
      [names, like ?? null],
    );
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  });
}
