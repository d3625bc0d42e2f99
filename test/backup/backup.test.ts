// svc backup / restore end to end (issue 29, item 1): a backup taken while clients are being written, restored
// into a fresh data folder (embedded PostgreSQL) and a fresh database (the test server: PostgreSQL 15 under
// TEST_DATABASE_URL), and the service started on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Manifest } from '../../src/backup/format.ts';
import { startEmbedded } from '../../src/db/embedded.ts';
import { cloneDatabase } from '../clone.ts';
import { makeDataDir, runCli, startService } from '../main/support.ts';
import {
  PNG,
  attachment,
  call,
  createTenant,
  emptyDatabase,
  expectedChecksums,
  listening,
  sha256,
  tableChecksums,
  writeLoad,
} from './support.ts';

/** The load writes faster than the default limits (30 writes a minute per key, 300 requests per address). */
const LOAD = { SVC_RATE_LIMIT_WRITE: '100000', SVC_RATE_LIMIT_READ: '100000', SVC_RATE_LIMIT_ADDRESS: '100000' };

interface Place {
  dir: string;
  env: NodeJS.ProcessEnv;
}

/** The database a place's service uses: DATABASE_URL, or its embedded server (started here, stopped after). */
async function withUrl<T>(place: Place, fn: (url: string) => Promise<T>): Promise<T> {
  if (place.env.DATABASE_URL) return fn(place.env.DATABASE_URL);
  const server = await startEmbedded({ dataDir: place.dir });
  try {
    return await fn(server.url);
  } finally {
    await server.stop();
  }
}

async function verified(file: string): Promise<Manifest> {
  const result = await runCli(await makeDataDir(), ['backup', '--verify', file, '--json']);
  assert.equal(result.code, 0, result.stderr);
  return (JSON.parse(result.stdout) as { manifest: Manifest }).manifest;
}

/** Backup during a write load, restore elsewhere, start there: what was acknowledged before is there, whole. */
async function roundTrip(source: Place, target: Place, file: string): Promise<Manifest> {
  const service = startService(source.dir, source.env);
  const tenant = await createTenant(await listening(service), source.dir, source.env);
  const attachmentId = await attachment(tenant);
  const load = writeLoad(tenant);
  while (load.acked.length < 20) await new Promise((r) => setTimeout(r, 20));
  const ackedBefore = [...load.acked];
  const backup = await runCli(source.dir, ['backup', file, '--json'], source.env);
  const ackedDuring = load.acked.length - ackedBefore.length;
  await load.stop();
  service.child.kill('SIGTERM');
  await service.exited;
  assert.equal(backup.code, 0, backup.stderr);
  assert.ok(ackedDuring > 0, 'the service kept taking writes while the backup ran');

  const manifest = await verified(file);
  const clients = manifest.data.find((part) => part.name === 'clients')!;
  assert.ok(clients.rows >= ackedBefore.length, `${clients.rows} clients, ${ackedBefore.length} acknowledged before`);
  assert.deepEqual(
    manifest.attachments.map((a) => [a.key, a.size]),
    [[sha256(PNG), PNG.length]],
  );

  const restore = await runCli(target.dir, ['restore', file, '--json'], target.env);
  assert.equal(restore.code, 0, restore.stderr);
  await withUrl(target, async (url) => {
    assert.deepEqual(
      await tableChecksums(url, manifest),
      expectedChecksums(manifest),
      'every table as in the manifest',
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ id: number }>('select id from clients where id = any($1::int[])', [
      ackedBefore,
    ]);
    await client.end();
    assert.equal(rows.length, ackedBefore.length, 'every write acknowledged before the backup started is restored');
  });

  const restored = startService(target.dir, target.env);
  const there = { ...tenant, baseUrl: await listening(restored) };
  assert.equal((await call(there, 'GET', `/clients/${ackedBefore.at(-1)}`)).name, `Load ${ackedBefore.length - 1}`);
  const download = await fetch(`${there.baseUrl}/api/v3/attachments/${attachmentId}/download`, {
    headers: there.headers,
  });
  assert.equal(download.status, 200);
  assert.equal(sha256(Buffer.from(await download.arrayBuffer())), sha256(PNG));
  const next = await call(there, 'POST', '/clients', { name: 'After the restore' });
  assert.ok(next.id > Math.max(...ackedBefore), 'identities continue after the restored rows');
  restored.child.kill('SIGTERM');
  await restored.exited;
  return manifest;
}

const backups = await makeDataDir();
const embeddedFile = path.join(backups, 'embedded.tar.gz');
const embeddedSource: Place = { dir: await makeDataDir(), env: LOAD };

test(
  'embedded: a backup under a write load restores into an empty data folder, the service starts on it',
  { timeout: 240_000 },
  async () => {
    await roundTrip(embeddedSource, { dir: await makeDataDir(), env: LOAD }, embeddedFile);
  },
);

test('DATABASE_URL (the test server): the same into a new, empty database', { timeout: 240_000 }, async () => {
  const source = { dir: await makeDataDir(), env: { ...LOAD, DATABASE_URL: await emptyDatabase('src') } };
  const target = { dir: await makeDataDir(), env: { ...LOAD, DATABASE_URL: await emptyDatabase('dst') } };
  await roundTrip(source, target, path.join(backups, 'url.tar.gz'));
});

/** A copy of the good file with `change` applied to its bytes. */
async function spoiled(name: string, change: (bytes: Buffer) => Buffer): Promise<string> {
  const file = path.join(backups, name);
  await fs.writeFile(file, change(await fs.readFile(embeddedFile)));
  return file;
}

test(
  'a truncated or corrupted file is refused by --verify and by restore, with nothing written',
  { timeout: 120_000 },
  async () => {
    const truncated = await spoiled('truncated.tar.gz', (bytes) => bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const corrupted = await spoiled('corrupted.tar.gz', (bytes) => {
      const copy = Buffer.from(bytes);
      copy[Math.floor(copy.length / 2)]! ^= 0xff;
      return copy;
    });
    for (const file of [truncated, corrupted]) {
      const check = await runCli(await makeDataDir(), ['backup', '--verify', file]);
      assert.equal(check.code, 1);
      assert.match(check.stderr, /damaged or incomplete|does not match its manifest|ends before its manifest/);
      const target = await makeDataDir();
      const restore = await runCli(target, ['restore', file]);
      assert.equal(restore.code, 1);
      assert.match(restore.stderr, /damaged or incomplete|does not match its manifest|ends before its manifest/);
      assert.deepEqual(await fs.readdir(target), [], 'no database was started, no file written');
    }
    const url = await emptyDatabase('bad');
    const refused = await runCli(await makeDataDir(), ['restore', truncated], { DATABASE_URL: url });
    assert.equal(refused.code, 1);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`);
    await client.end();
    assert.deepEqual(rows, [{ n: 0 }], 'the target database was not touched');
  },
);

test('a non-empty target is refused and left as it was', { timeout: 120_000 }, async () => {
  const manifest = await verified(embeddedFile);
  const before = await withUrl(embeddedSource, (url) => tableChecksums(url, manifest));
  const refused = await runCli(embeddedSource.dir, ['restore', embeddedFile]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /the target database is not empty \(rows in .*clients/);
  assert.deepEqual(await withUrl(embeddedSource, (url) => tableChecksums(url, manifest)), before);
});

test(
  'a migrated database holding only the rows its migrations seed counts as empty',
  { timeout: 120_000 },
  async () => {
    const url = await cloneDatabase();
    const restore = await runCli(await makeDataDir(), ['restore', embeddedFile, '--json'], { DATABASE_URL: url });
    assert.equal(restore.code, 0, restore.stderr);
    const manifest = await verified(embeddedFile);
    assert.deepEqual(await tableChecksums(url, manifest), expectedChecksums(manifest));
  },
);

test('usage: backup and restore take exactly one FILE; a file that is not a backup is named as such', async () => {
  const dir = await makeDataDir();
  const [none, two, notGzip] = await Promise.all([
    runCli(dir, ['backup']),
    runCli(dir, ['restore', 'a.tar.gz', 'b.tar.gz']),
    runCli(dir, ['backup', '--verify', path.join(import.meta.dirname, 'support.ts')]),
  ]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /backup: give exactly one FILE \(got 0\)/);
  assert.equal(two.code, 2);
  assert.equal(notGzip.code, 1);
  assert.match(notGzip.stderr, /the backup file is damaged or incomplete/);
  assert.deepEqual(await fs.readdir(dir), [], 'no database was started');
});
