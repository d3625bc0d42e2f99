// The backup file (decision 0061): a gzip-compressed tar, readable with `tar xzf` alone.
//   backup.json                      what a restore needs before any data: schema, tables, sequences, snapshot
//   tables/<table>/<000001>.copy     the table's rows in COPY text format, in parts of at most PART_BYTES
//   attachments/<key>                one stored attachment file (its key is its SHA-256)
//   manifest.json                    last: backup.json again plus row counts, sizes and SHA-256 of every part
// The manifest comes last because the counts and checksums are known only once the data is written; a file
// that ends before it is incomplete by definition.

export const FORMAT = 'service-api-backup';
export const FORMAT_VERSION = 1;
export const HEADER_ENTRY = 'backup.json';
export const MANIFEST_ENTRY = 'manifest.json';
/** Rows are buffered up to this much per tar entry (tar needs each entry's size up front): memory stays flat. */
export const PART_BYTES = 4 << 20;

export const partEntry = (table: string, n: number) => `tables/${table}/${String(n).padStart(6, '0')}.copy`;
export const attachmentEntry = (key: string) => `attachments/${key}`;

/** The table a part entry belongs to, or undefined for any other entry. */
export function tableOfEntry(name: string): string | undefined {
  const match = /^tables\/([^/]+)\/\d{6}\.copy$/.exec(name);
  return match?.[1];
}

export function keyOfEntry(name: string): string | undefined {
  const match = /^attachments\/([a-z0-9_-]+)$/.exec(name);
  return match?.[1];
}

/**
 * Session settings under which COPY text means the same on the way out and in, whatever the server's or the
 * role's defaults (time stamps in UTC and ISO, floats exact, bytea in hex).
 */
export const SESSION_SETTINGS = [
  "SET TimeZone = 'UTC'",
  "SET DateStyle = 'ISO, YMD'",
  "SET IntervalStyle = 'postgres'",
  'SET extra_float_digits = 3',
  "SET bytea_output = 'hex'",
  "SET client_encoding = 'UTF8'",
  // A time-out set on the role (README: ALTER ROLE ... SET statement_timeout) must not cut a long COPY short.
  'SET statement_timeout = 0',
  'SET idle_in_transaction_session_timeout = 0',
];

export interface TableInfo {
  name: string;
  /** The stored (not generated) columns, in table order: what COPY writes and reads. */
  columns: string[];
}

export interface Header {
  format: typeof FORMAT;
  format_version: number;
  /** The release that made the file (package.json version). */
  made_by: string;
  /** When the snapshot was taken (the backup transaction's first statement) and its pg_current_snapshot(). */
  snapshot: { time: string; id: string };
  /** The schema version: the last applied migration, and every applied migration (the set is what counts). */
  schema: { version: string; migrations: Array<{ name: string; applied_at: string }> };
  /** In foreign-key order: a table comes after every table it references. */
  tables: TableInfo[];
  /** Sequences that have been used, with their value when the data was read. */
  sequences: Array<{ name: string; last_value: string }>;
  /** 'local': the attachment files are in this file; 's3': they stay in the bucket (back it up apart). */
  attachment_store: 'local' | 's3';
}

export interface TablePart {
  name: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface AttachmentFile {
  key: string;
  size: number;
  sha256: string;
}

export interface Manifest extends Header {
  data: TablePart[];
  attachments: AttachmentFile[];
  finished_at: string;
}

/** A file that is not a backup, or not one this release can read, or damaged: nothing was written. */
export class BackupFileError extends Error {}
