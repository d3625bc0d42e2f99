// svc backup FILE: one REPEATABLE READ, READ ONLY transaction (one snapshot, while the service keeps writing),
// each table streamed out with COPY into a tar.gz, then the attachment files, then the manifest.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, constants as zlib } from 'node:zlib';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import tar from 'tar-stream';
import type { BlobStore } from '../platform/storage/index.ts';
import { appliedMigrations, listTables, quoteColumns, usedSequences } from './catalog.ts';
import {
  FORMAT,
  FORMAT_VERSION,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
  PART_BYTES,
  SESSION_SETTINGS,
  attachmentEntry,
  partEntry,
  type AttachmentFile,
  type Header,
  type Manifest,
  type TableInfo,
  type TablePart,
} from './format.ts';
import type { Progress } from './progress.ts';

const NEWLINE = 0x0a;

/** Rows in COPY text: one line each (a newline inside a value is written as \n). */
export function countLines(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

const addEntry = (pack: tar.Pack, name: string, body: Buffer) =>
  new Promise<void>((resolve, reject) =>
    pack.entry({ name, size: body.length, mtime: new Date(0) }, body, (error) => (error ? reject(error) : resolve())),
  );

async function readHeader(client: pg.Client, madeBy: string, store: BlobStore): Promise<Header> {
  // The snapshot is taken by the transaction's first statement: this one.
  const { rows } = await client.query<{ time: string; id: string }>(
    `select statement_timestamp()::text as time, pg_current_snapshot()::text as id`,
  );
  const migrations = await appliedMigrations(client);
  return {
    format: FORMAT,
    format_version: FORMAT_VERSION,
    made_by: madeBy,
    snapshot: rows[0]!,
    schema: { version: migrations.at(-1)?.name ?? '', migrations },
    tables: await listTables(client),
    sequences: await usedSequences(client),
    attachment_store: store.kind,
  };
}

/** One table's rows, cut into parts of at most PART_BYTES; nothing more than one part is ever held. */
async function writeTable(client: pg.Client, pack: tar.Pack, table: TableInfo, progress: Progress): Promise<TablePart> {
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  let parts = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const body = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await addEntry(pack, partEntry(table.name, ++parts), body);
  };
  const name = client.escapeIdentifier(table.name);
  const stream = client.query(copyTo(`COPY ${name} (${quoteColumns(client, table.columns)}) TO STDOUT`));
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    rows += countLines(chunk);
    bytes += chunk.length;
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= PART_BYTES) await flush();
    progress.rows(table.name, rows);
  }
  await flush();
  progress.tableDone(table.name, rows);
  return { name: table.name, rows, bytes, sha256: hash.digest('hex') };
}

/** The stored attachment files, each streamed in with its size known (tar needs it) and hashed on the way. */
async function writeAttachments(pack: tar.Pack, store: BlobStore, progress: Progress): Promise<AttachmentFile[]> {
  if (store.kind !== 'local') return [];
  const files: AttachmentFile[] = [];
  for await (const blob of store.list()) {
    const hash = createHash('sha256');
    const hasher = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    let entry: NodeJS.WritableStream | undefined;
    const written = new Promise<void>((resolve, reject) => {
      entry = pack.entry({ name: attachmentEntry(blob.key), size: blob.size, mtime: blob.modifiedAt }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
    await pipeline(await store.get(blob.key), hasher, entry!);
    await written;
    files.push({ key: blob.key, size: blob.size, sha256: hash.digest('hex') });
    progress.attachment(files.length);
  }
  return files;
}

export interface BackupResult {
  manifest: Manifest;
  bytes: number;
}

/**
 * Writes the backup to a temporary file beside FILE and renames it into place when complete: FILE is either the
 * previous file or a whole new one, never half a backup.
 */
export async function writeBackup(
  client: pg.Client,
  store: BlobStore,
  file: string,
  options: { madeBy: string; progress: Progress },
): Promise<BackupResult> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.partial`);
  const pack = tar.pack();
  const out = createWriteStream(temp, { flags: 'wx' });
  // Level 1: most of the size gain for a fraction of the time (the decision has the figures).
  const written = pipeline(pack, createGzip({ level: 1, memLevel: 9, strategy: zlib.Z_DEFAULT_STRATEGY }), out);
  written.catch(() => {}); // awaited below; an early failure must not be an unhandled rejection meanwhile
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    for (const setting of SESSION_SETTINGS) await client.query(setting);
    const header = await readHeader(client, options.madeBy, store);
    await addEntry(pack, HEADER_ENTRY, Buffer.from(JSON.stringify(header, null, 2)));
    const data: TablePart[] = [];
    for (const table of header.tables) data.push(await writeTable(client, pack, table, options.progress));
    await client.query('COMMIT');
    const attachments = await writeAttachments(pack, store, options.progress);
    const manifest: Manifest = { ...header, data, attachments, finished_at: new Date().toISOString() };
    await addEntry(pack, MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2)));
    pack.finalize();
    await written;
    await rename(temp, file);
    return { manifest, bytes: out.bytesWritten };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    pack.destroy();
    await written.catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
}
