// Reading a backup file entry by entry, and `svc backup --verify`: every part's rows and SHA-256 against the
// manifest, every attachment's size and SHA-256, the header against the manifest. Reads the whole file, stores
// nothing.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import {
  BackupFileError,
  FORMAT,
  FORMAT_VERSION,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
  keyOfEntry,
  tableOfEntry,
  type Header,
  type Manifest,
} from './format.ts';
import type { Progress } from './progress.ts';
import { countLines } from './write.ts';

export interface Entry {
  name: string;
  size: number;
  body: Readable;
}

/** The entries in file order; a damaged gzip or tar stream surfaces as a BackupFileError from the iteration. */
export async function* entries(file: string): AsyncGenerator<Entry> {
  const extract = tar.extract();
  pipeline(createReadStream(file), createGunzip(), extract as unknown as NodeJS.WritableStream, (error) => {
    if (error) extract.destroy(error);
  });
  try {
    for await (const entry of extract) {
      yield { name: entry.header.name, size: entry.header.size ?? 0, body: entry as unknown as Readable };
      entry.resume(); // whatever the consumer did not read
    }
  } catch (error) {
    throw damaged(error);
  } finally {
    extract.destroy(); // a reader that stopped early leaves no file open behind it
  }
}

/** zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR: "unexpected end of file") and tar-stream's mean a damaged file. */
export function isDamage(error: unknown): boolean {
  const { code, message } = error as NodeJS.ErrnoException;
  return error instanceof BackupFileError || code?.startsWith('Z_') === true || /tar header|end of data/i.test(message);
}

export function damaged(error: unknown): Error {
  if (error instanceof BackupFileError || !isDamage(error)) return error as Error;
  return new BackupFileError(`the backup file is damaged or incomplete (${(error as Error).message})`);
}

export async function readJson<T>(entry: Entry): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of entry.body) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
  } catch {
    throw new BackupFileError(`${entry.name} is not valid JSON: the backup file is damaged`);
  }
}

export function checkHeader(header: Header): void {
  if (header?.format !== FORMAT) throw new BackupFileError('this is not a service backup file (no backup.json)');
  if (header.format_version > FORMAT_VERSION)
    throw new BackupFileError(
      `this backup file has format version ${header.format_version}; this release reads up to ${FORMAT_VERSION}`,
    );
}

interface Seen {
  data: Map<string, { hash: ReturnType<typeof createHash>; rows: number; bytes: number }>;
  attachments: Map<string, { size: number; sha256: string }>;
}

async function readPart(entry: Entry, seen: Seen, table: string): Promise<void> {
  const state = seen.data.get(table) ?? { hash: createHash('sha256'), rows: 0, bytes: 0 };
  seen.data.set(table, state);
  for await (const chunk of entry.body as AsyncIterable<Buffer>) {
    state.hash.update(chunk);
    state.rows += countLines(chunk);
    state.bytes += chunk.length;
  }
}

async function readAttachment(entry: Entry, seen: Seen, key: string): Promise<void> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of entry.body as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  seen.attachments.set(key, { size, sha256: hash.digest('hex') });
}

/** Everything the manifest claims, against what the file holds. */
export function compare(manifest: Manifest, header: Header, seen: Seen): void {
  const problems: string[] = [];
  if (JSON.stringify(manifest.schema) !== JSON.stringify(header.schema)) problems.push('schema differs from header');
  for (const part of manifest.data) {
    const state = seen.data.get(part.name);
    const found = state
      ? { rows: state.rows, bytes: state.bytes, sha256: state.hash.digest('hex') }
      : { rows: 0, bytes: 0, sha256: createHash('sha256').digest('hex') };
    seen.data.delete(part.name);
    if (found.rows !== part.rows || found.bytes !== part.bytes || found.sha256 !== part.sha256)
      problems.push(
        `table ${part.name}: ${found.rows} rows, SHA-256 ${found.sha256.slice(0, 12)}…, expected ` +
          `${part.rows} rows, ${part.sha256.slice(0, 12)}…`,
      );
  }
  for (const name of seen.data.keys()) problems.push(`table ${name} is not in the manifest`);
  for (const file of manifest.attachments) {
    const found = seen.attachments.get(file.key);
    seen.attachments.delete(file.key);
    if (!found || found.size !== file.size || found.sha256 !== file.sha256)
      problems.push(`attachment ${file.key}: ${found ? 'size or SHA-256 differs' : 'missing'}`);
  }
  for (const key of seen.attachments.keys()) problems.push(`attachment ${key} is not in the manifest`);
  if (problems.length)
    throw new BackupFileError(`the backup file does not match its manifest: ${problems.slice(0, 5).join('; ')}`);
}

/** Reads the whole file; answers its manifest when everything in it checks out. */
export async function verifyBackup(file: string, progress: Progress): Promise<Manifest> {
  try {
    return await readAll(file, progress);
  } catch (error) {
    throw damaged(error);
  }
}

async function readAll(file: string, progress: Progress): Promise<Manifest> {
  let header: Header | undefined;
  let manifest: Manifest | undefined;
  const seen: Seen = { data: new Map(), attachments: new Map() };
  for await (const entry of entries(file)) {
    if (manifest) throw new BackupFileError(`unexpected ${entry.name} after the manifest`);
    if (!header) {
      if (entry.name !== HEADER_ENTRY) throw new BackupFileError('this is not a service backup file (no backup.json)');
      header = await readJson<Header>(entry);
      checkHeader(header);
      continue;
    }
    const table = tableOfEntry(entry.name);
    const key = keyOfEntry(entry.name);
    if (table) await readPart(entry, seen, table);
    else if (key) await readAttachment(entry, seen, key);
    else if (entry.name === MANIFEST_ENTRY) manifest = await readJson<Manifest>(entry);
    else throw new BackupFileError(`unexpected entry ${entry.name} in the backup file`);
    if (table) progress.rows(table, seen.data.get(table)!.rows);
  }
  if (!header) throw new BackupFileError('the backup file is empty');
  if (!manifest) throw new BackupFileError('the backup file is incomplete: it ends before its manifest');
  compare(manifest, header, seen);
  return manifest;
}
