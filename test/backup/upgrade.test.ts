// Upgrades (issue 29, item 4): a backup made by an earlier release (a database at fewer migrations) restores at its
// own schema, migrates forward, and today's release starts on it; a backup from a newer release is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, createWriteStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { Header } from '../../src/backup/format.ts';
import { openDatabase } from '../../src/db/database.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import * as companies from '../../src/modules/companies/index.ts';
import { makeDataDir, runCli, startService } from '../main/support.ts';
import { call, emptyDatabase, listening } from './support.ts';

const known = await listMigrations();
const LATER = 3;
const backups = await makeDataDir();
const file = path.join(backups, 'earlier-release.tar.gz');

test(
  'a backup of an earlier release restores, migrates forward, and this release serves it',
  { timeout: 180_000 },
  async () => {
    const old = await emptyDatabase('old');
    await migrate(old, new Set(known.slice(0, -LATER)));
    const database = openDatabase(old, { max: 1 });
    const created = await companies.createCompany(database.db, { name: 'Earlier Co' }, []);
    await database.close();

    const backup = await runCli(await makeDataDir(), ['backup', file, '--json'], { DATABASE_URL: old });
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal(
      JSON.parse(backup.stdout).schema_version,
      known.at(-LATER - 1),
      'the backup did not migrate its source',
    );

    const now = await emptyDatabase('now');
    const restore = await runCli(await makeDataDir(), ['restore', file, '--json'], { DATABASE_URL: now });
    assert.equal(restore.code, 0, restore.stderr);
    assert.deepEqual(JSON.parse(restore.stdout).migrated, known.slice(-LATER));

    const service = startService(await makeDataDir(), { DATABASE_URL: now });
    const tenant = {
      baseUrl: await listening(service),
      headers: { 'x-service-company': created.company_id, 'x-api-key': created.api_key.full_key },
    };
    assert.deepEqual(await call(tenant, 'GET', '/clients'), []);
    assert.equal(
      (await call(tenant, 'POST', '/clients', { name: 'First after the upgrade' })).name,
      'First after the upgrade',
    );
    service.child.kill('SIGTERM');
    await service.exited;
  },
);

/** The file again with one migration this release does not have in its header and manifest. */
async function fromTheFuture(): Promise<string> {
  const target = path.join(backups, 'newer-release.tar.gz');
  const extract = tar.extract();
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(target));
  const read = pipeline(createReadStream(file), createGunzip(), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (entry.header.name.endsWith('.json')) {
      const json = JSON.parse(body.toString()) as Header;
      json.schema.migrations.push({ name: '9990_from_a_newer_release.sql', applied_at: '2030-01-01 00:00:00+00' });
      body = Buffer.from(JSON.stringify(json));
    }
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: entry.header.name, size: body.length }, body, (e) => (e ? reject(e) : resolve())),
    );
  }
  await read;
  pack.finalize();
  await written;
  return target;
}

test('a backup from a newer release is refused before anything is touched', { timeout: 60_000 }, async () => {
  const newer = await fromTheFuture();
  const check = await runCli(await makeDataDir(), ['backup', '--verify', newer]);
  assert.equal(check.code, 0, 'the file itself is whole');
  const target = await makeDataDir();
  const restore = await runCli(target, ['restore', newer]);
  assert.equal(restore.code, 1);
  assert.match(
    restore.stderr,
    /this backup was made by a newer release \(it has 1 migration\(s\) this release does not know, the last 9990_from_a_newer_release\.sql\)/,
  );
  assert.deepEqual(await fs.readdir(target), []);
});
