// The shape of an operator command in src/cli.ts's table, apart so command groups in files of their own
// (src/cli-backup.ts) can declare theirs without importing the entry point back.
import type { ParseArgsOptionsConfig } from 'node:util';
import type { Config } from './config.ts';
import type { Connection } from './db/connect.ts';
import type { Db } from './db/database.ts';
import { AppError } from './platform/errors.ts';

export class UsageError extends Error {}

export type Values = Record<string, string | boolean | string[] | undefined>;
export type Output = { json: unknown; text: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The company UUID an operator command names in --option; 400-style VALIDATION_ERROR otherwise. */
export function companyId(values: Values, option: string): string {
  const id = values[option] as string;
  if (!UUID.test(id))
    throw new AppError('VALIDATION_ERROR', `--${option} must be a company UUID (8-4-4-4-12 hex), got "${id}"`, {
      field: option,
    });
  return id;
}

export interface Command {
  options: ParseArgsOptionsConfig;
  required?: string[];
  /** Takes one FILE argument after the command word (backup, restore); it arrives as values.file. */
  file?: boolean;
  /** false: connect without applying migrations (a backup copies the schema as it is; a restore builds its own). */
  migrate?: false;
  /**
   * Builds and validates the input before any database work, so a typo never starts a server (restore verifies
   * its whole file here: a bad file touches no database and no data folder).
   */
  input(values: Values): unknown;
  /** Work that needs no database (backup --verify): when it answers, no server is started. */
  offline?(values: Values): Promise<Output> | undefined;
  run(db: Db, input: never, connection: Connection, config: Config): Promise<Output>;
}
