import { sql } from 'kysely';
import type { Ctx } from './context.ts';
import { domainValidation, invalidReference } from './errors.ts';

type RefTable = 'people' | 'clients' | 'client_groups' | 'contacts' | 'topics' | 'members';
const SOFT_DELETED = new Set<RefTable>(['clients', 'client_groups', 'contacts', 'topics']);

/** Ids among `ids` that are live rows of this company (another tenant's id is simply absent). */
export async function liveIds(ctx: Ctx, table: RefTable, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const deleted = SOFT_DELETED.has(table) ? sql` and deleted_at is null` : sql``;
  const result = await sql<{ id: number }>`select id from ${sql.table(table)} where company_id = ${ctx.companyId} and id = any(${[...ids]}::int[])${deleted}`.execute(ctx.db);
  return new Set(result.rows.map((r) => r.id));
}

/** 400 INVALID_<ENTITY> when a referenced id is not a live record of this company. */
export async function assertReference(ctx: Ctx, table: RefTable, entity: string, field: string, id: number | null | undefined): Promise<void> {
  if (id === null || id === undefined) return;
  if (!(await liveIds(ctx, table, [id])).has(id)) throw invalidReference(entity, field, id);
}

/** For references the spec files under VALIDATION_ERROR with a reason (INVALID_GROUP, INVALID_TOPIC). */
export async function assertReferenceList(ctx: Ctx, table: RefTable, reason: string, field: string, ids: readonly number[] | undefined): Promise<void> {
  if (!ids || ids.length === 0) return;
  const found = await liveIds(ctx, table, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw domainValidation(reason, `${field} contains ids that are not records of this company: ${missing.join(', ')}`, { field, invalid_ids: missing });
}
