// svc restore FILE: into an empty database (and an empty attachment store) only. The file is verified first;
// the schema is rebuilt at the backup's migrations, every table loaded in ONE transaction (checked against the
// manifest before commit), attachment files staged and moved into place only after the commit, and then the
// migrations this release adds run forward. A bad file leaves nothing behind.
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { listMigrations, migrate } from '../db/migrate.ts';
import type { BlobStore, StagedBlob } from '../platform/storage/index.ts';
import { appliedMigrations, hasMigrationsTable, quoteColumns, tablesWithRows } from './catalog.ts';
import { BackupFileError, SESSION_SETTINGS, keyOfEntry, tableOfEntry, type Manifest } from './format.ts';
import { damaged, entries, isDamage, type Entry } from './read.ts';
import { countLines } from './write.ts';
import type { Progress } from './progress.ts';

/** Tables the migrations fill themselves: rows there do not make a database "not empty". */
const SEEDED_BY_MIGRATIONS = new Set(['platform_settings', 'global_holidays']);

export class RestoreRefused extends Error {}

/** A backup made at migrations this release does not have would load into a schema that is not there. */
export async function refuseNewerBackup(manifest: Manifest): Promise<void> {
  const known = new Set(await listMigrations());
  const unknown = manifest.schema.migrations.map((m) => m.name).filter((name) => !known.has(name));
  if (unknown.length)
    throw new RestoreRefused(
      `this backup was made by a newer release (it has ${unknown.length} migration(s) this release does not know, ` +
        `the last ${unknown.at(-1)}); restore it with that release or a later one`,
    );
}

/** Empty: no schema of ours, or one no further than the backup's with no rows but the migrations' own. */
export async function refuseNonEmptyTarget(client: pg.Client, manifest: Manifest, store: BlobStore): Promise<void> {
  if (await hasMigrationsTable(client)) {
    const wanted = new Set(manifest.schema.migrations.map((m) => m.name));
    const extra = (await appliedMigrations(client)).filter((m) => !wanted.has(m.name));
    if (extra.length)
      throw new RestoreRefused(
        `the target database is at a newer schema than the backup (it has ${extra.at(-1)!.name}); restore into a new, empty database`,
      );
    const names = manifest.tables.map((t) => t.name).filter((name) => !SEEDED_BY_MIGRATIONS.has(name));
    const filled = await tablesWithRows(client, names);
    if (filled.length)
      throw new RestoreRefused(
        `the target database is not empty (rows in ${filled.slice(0, 5).join(', ')}${filled.length > 5 ? ', …' : ''}); ` +
          'restore into a new, empty database or data folder',
      );
  }
  for await (const blob of store.list())
    throw new RestoreRefused(
      `the target already stores attachment files (e.g. ${blob.key}); restore into an empty one`,
    );
}

/** A superuser loads with triggers and foreign-key checks off (the data was consistent when read); others keep the checks. */
async function quietTriggers(client: pg.Client): Promise<() => Promise<void>> {
  const { rows } = await client.query<{ is_superuser: string }>('show is_superuser');
  if (rows[0]?.is_superuser === 'on') {
    await client.query('SET LOCAL session_replication_role = replica');
    return async () => {};
  }
  // The service's triggers (webhook fan-out, invoiced-work guards, auth-change notices) must not fire on old rows.
  const triggers = await client.query<{ tbl: string; name: string }>(
    `select c.relname as tbl, t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
     where not t.tgisinternal and t.tgenabled <> 'D'`,
  );
  const alter = async (verb: string) => {
    for (const t of triggers.rows)
      await client.query(
        `ALTER TABLE ${client.escapeIdentifier(t.tbl)} ${verb} TRIGGER ${client.escapeIdentifier(t.name)}`,
      );
  };
  await alter('DISABLE');
  return () => alter('ENABLE');
}

interface Load {
  table: string;
  stream: Writable & { rowCount?: number };
  done: Promise<void>;
  hash: ReturnType<typeof createHash>;
}

function startCopy(client: pg.Client, manifest: Manifest, table: string): Load {
  const info = manifest.tables.find((t) => t.name === table);
  if (!info) throw new BackupFileError(`table ${table} is not in the manifest`);
  const stream = client.query(
    copyFrom(`COPY ${client.escapeIdentifier(table)} (${quoteColumns(client, info.columns)}) FROM STDIN`),
  );
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  // Awaited in finishCopy; a COPY cut short by a failure elsewhere must not surface as an unhandled rejection.
  done.catch(() => {});
  return { table, stream, done, hash: createHash('sha256') };
}

async function finishCopy(load: Load, manifest: Manifest, progress: Progress): Promise<void> {
  load.stream.end();
  await load.done;
  const expected = manifest.data.find((d) => d.name === load.table)!;
  const rows = load.stream.rowCount ?? -1;
  if (rows !== expected.rows || load.hash.digest('hex') !== expected.sha256)
    throw new BackupFileError(`table ${load.table}: loaded ${rows} rows, the manifest says ${expected.rows}`);
  progress.tableDone(load.table, rows);
}

async function feed(entry: Entry, load: Load, progress: Progress, rows: { n: number }): Promise<void> {
  for await (const chunk of entry.body as AsyncIterable<Buffer>) {
    load.hash.update(chunk);
    rows.n += countLines(chunk);
    if (!load.stream.write(chunk)) await new Promise((resolve) => load.stream.once('drain', resolve));
  }
  progress.rows(load.table, rows.n);
}

async function stageAttachment(entry: Entry, key: string, manifest: Manifest, store: BlobStore): Promise<StagedBlob> {
  const staged = await store.stage();
  const hash = createHash('sha256');
  entry.body.on('data', (chunk: Buffer) => hash.update(chunk));
  try {
    await pipeline(entry.body, staged.stream);
  } catch (error) {
    await staged.discard();
    throw error;
  }
  const expected = manifest.attachments.find((a) => a.key === key);
  if (!expected || hash.digest('hex') !== expected.sha256) {
    await staged.discard();
    throw new BackupFileError(`attachment ${key} does not match the manifest`);
  }
  return staged;
}

/** The data of the file into the (empty, migrated) database, in one transaction; answers the staged files. */
async function loadData(
  client: pg.Client,
  file: string,
  manifest: Manifest,
  store: BlobStore,
  progress: Progress,
  staged: Array<{ key: string; blob: StagedBlob }>,
): Promise<void> {
  let load: Load | undefined;
  const parts = { n: 0 };
  for await (const entry of entries(file)) {
    const table = tableOfEntry(entry.name);
    const key = keyOfEntry(entry.name);
    if (load && load.table !== table) {
      await finishCopy(load, manifest, progress);
      load = undefined;
    }
    if (table) {
      if (!load) parts.n = 0;
      load ??= startCopy(client, manifest, table);
      await feed(entry, load, progress, parts);
    } else if (key) {
      staged.push({ key, blob: await stageAttachment(entry, key, manifest, store) });
      progress.attachment(staged.length);
    }
  }
  if (load) await finishCopy(load, manifest, progress);
}

async function restoreSequencesAndHistory(client: pg.Client, manifest: Manifest): Promise<void> {
  for (const { name, last_value } of manifest.sequences)
    await client.query('select setval($1::regclass, $2::bigint, true)', [client.escapeIdentifier(name), last_value]);
  // The operator view shows when the latest migration was applied: keep the source's times, not the restore's.
  for (const { name, applied_at } of manifest.schema.migrations)
    await client.query('update schema_migrations set applied_at = $2 where name = $1', [name, applied_at]);
}

export interface RestoreResult {
  /** Migrations this release added after the backup's, applied once the data was in. */
  migrated: string[];
  attachments: number;
}

/** The caller verified the file and checked the target empty (restore in src/cli-backup.ts). */
export async function loadBackup(
  client: pg.Client,
  url: string,
  file: string,
  manifest: Manifest,
  store: BlobStore,
  progress: Progress,
): Promise<RestoreResult> {
  await migrate(url, new Set(manifest.schema.migrations.map((m) => m.name)));
  const staged: Array<{ key: string; blob: StagedBlob }> = [];
  try {
    await client.query('BEGIN');
    for (const setting of SESSION_SETTINGS) await client.query(setting);
    const restoreTriggers = await quietTriggers(client);
    // The migrations' seed rows are in the backup too, as the source had them.
    const all = manifest.tables.map((t) => client.escapeIdentifier(t.name)).join(', ');
    await client.query(`TRUNCATE ${all}`);
    await loadData(client, file, manifest, store, progress, staged);
    await restoreSequencesAndHistory(client, manifest);
    await restoreTriggers();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    for (const { blob } of staged) await blob.discard();
    if (isDamage(error)) throw damaged(error);
    throw new Error(`nothing was restored: ${(error as Error).message}`, { cause: error });
  }
  for (const { key, blob } of staged) await blob.commit(key);
  return { migrated: await migrate(url), attachments: staged.length };
}
