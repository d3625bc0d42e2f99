import { sql } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Ctx } from './context.ts';
import { nextStamp } from './sql.ts';

/** Tenant tables whose rows are soft-deleted (they carry `deleted_at`). */
export type SoftDeletedTable = { [K in keyof DB]: DB[K] extends { deleted_at: unknown; company_id: string } ? K : never }[keyof DB];

/**
 * The spec's DELETE: the rows stay, marked deleted, and vanish from every read and list (each
 * repository's base query filters `deleted_at is null`). There is no restore.
 */
export async function softDelete(ctx: Ctx, table: SoftDeletedTable, ids: number | readonly number[]): Promise<void> {
  const list = typeof ids === 'number' ? [ids] : [...ids];
  if (list.length === 0) return;
  await sql`update ${sql.table(table)} set deleted_at = now(), updated_at = ${nextStamp()}
    where company_id = ${ctx.companyId} and id = any(${list}::int[]) and deleted_at is null`.execute(ctx.db);
}
