// svc backup and restore against a plain COPY of the same tables (issue 29, performance; decision 0061):
//   node bench/backup.ts [--scale=1] [--keep]
// On DATABASE_URL's server (a throw-away database per step, dropped after) or else an embedded server of its
// own. Seeds the benchmark data set, then times: plain COPY out of every table to uncompressed files, the backup,
// plain COPY in of those files into a migrated empty database (one transaction, like the restore), the restore
// (its verify pass included). The peak resident memory of each step says whether memory stayed flat.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { listTables, quoteColumns } from '../src/backup/catalog.ts';
import { SESSION_SETTINGS, type TableInfo } from '../src/backup/format.ts';
import { silent } from '../src/backup/progress.ts';
import { verifyBackup } from '../src/backup/read.ts';
import { loadBackup } from '../src/backup/restore.ts';
import { writeBackup } from '../src/backup/write.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { LocalBlobStore } from '../src/platform/storage/index.ts';
import { seedDatabase } from './seed.ts';

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const scale = Number(flag('scale') ?? 1);
const work = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-backup-'));

async function server(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const embedded = await startEmbedded({ dataDir: path.join(work, 'pg-data') });
  return { url: embedded.url, stop: () => embedded.stop() };
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
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

/** Seconds and peak resident memory (MB) of one step. */
async function measure(label: string, fn: () => Promise<unknown>): Promise<{ seconds: number; peakMb: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  const started = performance.now();
  await fn();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const result = { seconds, peakMb: peak / 1048576 };
  console.log(`${label.padEnd(34)} ${seconds.toFixed(2).padStart(7)} s   peak RSS ${result.peakMb.toFixed(0)} MB`);
  return result;
}

async function plainCopyOut(url: string, tables: TableInfo[]): Promise<void> {
  await withClient(url, async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    for (const setting of SESSION_SETTINGS) await client.query(setting);
    for (const t of tables) {
      const sql = `COPY ${client.escapeIdentifier(t.name)} (${quoteColumns(client, t.columns)}) TO STDOUT`;
      await pipeline(client.query(copyTo(sql)), createWriteStream(path.join(work, `${t.name}.copy`)));
    }
    await client.query('COMMIT');
  });
}

async function plainCopyIn(url: string, tables: TableInfo[]): Promise<void> {
  await withClient(url, async (client) => {
    await client.query('BEGIN');
    for (const setting of SESSION_SETTINGS) await client.query(setting);
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(`TRUNCATE ${tables.map((t) => client.escapeIdentifier(t.name)).join(', ')}`);
    for (const t of tables) {
      const sql = `COPY ${client.escapeIdentifier(t.name)} (${quoteColumns(client, t.columns)}) FROM STDIN`;
      await pipeline(createReadStream(path.join(work, `${t.name}.copy`)), client.query(copyFrom(sql)));
    }
    await client.query('COMMIT');
  });
}

const pg0 = await server();
const names = { source: 'bench_backup_source', plain: 'bench_backup_plain', restored: 'bench_backup_restored' };
const admin = databaseUrl(pg0.url, 'postgres');
try {
  await withClient(admin, async (client) => {
    for (const name of Object.values(names)) {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
    }
  });
  const source = databaseUrl(admin, names.source);
  await migrate(source);
  const seeded = await seedDatabase(source, { scale, seed: 1 });
  console.log(`scale ${scale}: ${seeded.rows.time_entries} time entries seeded in ${seeded.seconds.toFixed(0)} s`);
  await withClient(source, (c) => c.query('CHECKPOINT'));
  const tables = await withClient(source, listTables);
  const store = new LocalBlobStore(path.join(work, 'blobs'), path.join(work, 'tmp'));
  const file = path.join(work, 'bench.tar.gz');

  const copyOut = await measure('plain COPY out (files)', () => plainCopyOut(source, tables));
  const backup = await measure('svc backup', () =>
    withClient(source, (c) => writeBackup(c, store, file, { madeBy: 'bench', progress: silent })),
  );
  const plain = databaseUrl(admin, names.plain);
  await migrate(plain);
  const copyIn = await measure('plain COPY in (one transaction)', () => plainCopyIn(plain, tables));
  const restored = databaseUrl(admin, names.restored);
  const restore = await measure('svc restore (verify + load)', async () => {
    const manifest = await verifyBackup(file, silent);
    await withClient(restored, (c) => loadBackup(c, restored, file, manifest, store, silent));
  });
  console.log(`backup file ${((await stat(file)).size / 1048576).toFixed(0)} MB`);
  console.log(`backup / plain COPY out: ${(backup.seconds / copyOut.seconds).toFixed(2)} (issue: under 2)`);
  console.log(`restore / plain COPY in: ${(restore.seconds / copyIn.seconds).toFixed(2)} (issue: under 3)`);
} finally {
  if (!process.argv.includes('--keep'))
    await withClient(admin, async (client) => {
      for (const name of Object.values(names)) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  await pg0.stop();
  await rm(work, { recursive: true, force: true });
}
