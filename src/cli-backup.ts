// svc backup FILE, svc backup --verify FILE, svc restore FILE (decision 0061). The database is the usual one
// (DATABASE_URL, through DATABASE_DIRECT_URL when pooled, or the embedded server in SVC_DATA_DIR).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Command, Output, Values } from './cli-command.ts';
import type { Config } from './config.ts';
import type { Connection } from './db/connect.ts';
import { storageFor } from './platform/storage/index.ts';
import type { Manifest } from './backup/format.ts';
import { formatNumber, progressFor, type Progress } from './backup/progress.ts';
import { verifyBackup } from './backup/read.ts';
import { loadBackup, refuseNewerBackup, refuseNonEmptyTarget } from './backup/restore.ts';
import { writeBackup } from './backup/write.ts';

export const BACKUP_USAGE = `  backup FILE    a consistent copy of the database (one snapshot, while the service runs) and of the
                 attachment files under SVC_DATA_DIR, into one .tar.gz file with a manifest
  backup --verify FILE
                 check a backup file (every table's rows and SHA-256, every attachment) without restoring
  restore FILE   verify FILE, then restore it into an empty database (and data folder); refuses a
                 non-empty target and a backup from a newer release`;

interface FileInput {
  file: string;
  verify: boolean;
  json: boolean;
}

const fileInput = (values: Values): FileInput => ({
  file: path.resolve(values.file as string),
  verify: values.verify === true,
  json: values.json === true,
});

async function withClient<T>(connection: Connection, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  // Direct, not through a transaction pooler: the session settings and the long transaction need a session.
  const client = new pg.Client({ connectionString: connection.directUrl, application_name: 'service-api-backup' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const size = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const rowsOf = (manifest: Manifest) => manifest.data.reduce((sum, part) => sum + part.rows, 0);

function describe(manifest: Manifest): string {
  const files = manifest.attachments.length;
  const bytes = manifest.attachments.reduce((sum, file) => sum + file.size, 0);
  return (
    `${manifest.data.length} tables, ${formatNumber(rowsOf(manifest))} rows, ${files} attachment file(s) (${size(bytes)}), ` +
    `schema ${manifest.schema.version}, snapshot ${manifest.snapshot.time}`
  );
}

const summary = (manifest: Manifest) => ({
  snapshot: manifest.snapshot,
  schema_version: manifest.schema.version,
  tables: manifest.data.length,
  rows: rowsOf(manifest),
  attachments: manifest.attachments.length,
});

async function verify(input: FileInput): Promise<Output> {
  const started = performance.now();
  const progress = progressFor(input.json);
  progress.phase(`verifying ${input.file}`);
  const manifest = await verifyBackup(input.file, progress).finally(() => progress.end());
  return {
    json: { file: input.file, ok: true, ...summary(manifest), manifest },
    text: `${input.file} is a complete backup: ${describe(manifest)} (checked in ${seconds(started)})`,
  };
}

async function backup(connection: Connection, config: Config, input: FileInput): Promise<Output> {
  const started = performance.now();
  const progress = progressFor(input.json);
  const madeBy = (
    JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  const store = storageFor(config);
  const { manifest, bytes } = await withClient(connection, (client) =>
    writeBackup(client, store, input.file, { madeBy, progress }),
  ).finally(() => progress.end());
  const s3 = store.kind === 's3' ? ' (attachments are in the S3 bucket: back it up apart)' : '';
  return {
    json: { file: input.file, bytes, ...summary(manifest) },
    text: `Backed up ${describe(manifest)} to ${input.file} (${size(bytes)}) in ${seconds(started)}${s3}`,
  };
}

interface RestoreInput extends FileInput {
  manifest: Manifest;
  started: number;
}

/** Before any database or data folder is touched: the whole file checks out and its schema is one this release has. */
async function verifiedRestore(values: Values): Promise<RestoreInput> {
  const input = fileInput(values);
  const started = performance.now();
  const progress = progressFor(input.json);
  progress.phase(`verifying ${input.file}`);
  const manifest = await verifyBackup(input.file, progress).finally(() => progress.end());
  await refuseNewerBackup(manifest);
  return { ...input, manifest, started };
}

async function restore(connection: Connection, config: Config, input: RestoreInput, progress: Progress) {
  const { manifest, started } = input;
  const store = storageFor(config);
  const result = await withClient(connection, async (client) => {
    await refuseNonEmptyTarget(client, manifest, store);
    progress.phase('restoring');
    return loadBackup(client, connection.directUrl, input.file, manifest, store, progress);
  });
  const forward = result.migrated.length ? `; then applied ${result.migrated.length} newer migration(s)` : '';
  return {
    json: { file: input.file, ...summary(manifest), migrated: result.migrated },
    text: `Restored ${describe(manifest)} from ${input.file} in ${seconds(started)}${forward}`,
  };
}

export const BACKUP_COMMANDS: Record<string, Command> = {
  backup: {
    options: { verify: { type: 'boolean' } },
    file: true,
    migrate: false,
    input: fileInput,
    offline: (values) => (values.verify ? verify(fileInput(values)) : undefined),
    async run(_db, input: FileInput, connection, config) {
      return backup(connection, config, input);
    },
  },
  restore: {
    options: {},
    file: true,
    migrate: false,
    input: verifiedRestore,
    async run(_db, input: RestoreInput, connection, config) {
      const progress = progressFor(input.json);
      return restore(connection, config, input, progress).finally(() => progress.end());
    },
  },
};
