// A database of the harness's own for one run: a fresh embedded server under the OS temp dir, or a
// throw-away database on the server DATABASE_URL points at. Either way migrated, and removed after
// the run unless --keep.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { redactUrl } from '../src/db/connect.ts';

export interface BenchDatabase {
  kind: 'embedded' | 'postgres';
  url: string;
  /** Where it lives, safe to print. */
  location: string;
  version: string;
  teardown(): Promise<void>;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const serverVersion = (url: string) =>
  withClient(url, async (c) => (await c.query('show server_version')).rows[0].server_version as string);

async function embedded(keep: boolean, log: (line: string) => void): Promise<BenchDatabase> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
  await chmod(dir, 0o755); // as root the server runs as the postgres user, which must reach the directory
  const server = await startEmbedded({ dataDir: dir, log: (msg) => log(`  ${msg}`) });
  await migrate(server.url);
  return {
    kind: 'embedded',
    url: server.url,
    location: dir,
    version: await serverVersion(server.url),
    teardown: async () => {
      await server.stop();
      if (!keep) await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgres(keep: boolean): Promise<BenchDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('--db=postgres needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  const name = `svc_bench_${Date.now().toString(36)}`;
  await withClient(base, (c) => c.query(`create database "${name}"`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return {
    kind: 'postgres',
    url: url.toString(),
    location: redactUrl(url.toString()),
    version: await serverVersion(url.toString()),
    teardown: async () => {
      if (!keep) await withClient(base, (c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

export function openBenchDatabase(
  kind: 'embedded' | 'postgres',
  keep: boolean,
  log: (line: string) => void,
): Promise<BenchDatabase> {
  return kind === 'embedded' ? embedded(keep, log) : postgres(keep);
}
