import { sql } from 'kysely';
import { SOFT_DELETED_TABLES } from '../db/schema.ts';
import type { Ctx } from './context.ts';
import { domainValidation, invalidReference } from './errors.ts';
import { scoped, type TenantTableName } from './tenant-table.ts';
import { rowVisible } from './visibility.ts';

const SOFT_DELETED = new Set<string>(SOFT_DELETED_TABLES);

/**
 * A company's live rows of any tenant table (deleted ones excluded) that the caller may see: for a plain member's
 * personal key, only those the rule its module declares admits. A reference to a record the key cannot see is
 * then refused exactly like one to an absent record (same status, code and message), so no answer tells a member
 * which hidden ids exist.
 */
function liveRows(ctx: Ctx, table: TenantTableName) {
  let query = scoped.select(ctx, table, 'r') as ReturnType<typeof scoped.select<'clients', 'r'>>;
  if (SOFT_DELETED.has(table)) query = query.where(sql.ref('r.deleted_at'), 'is', null);
  if (ctx.actor.restricted) query = query.where(rowVisible(ctx, table, 'r'));
  return query;
}

/** Ids among `ids` that are live rows of this company the caller may see (another tenant's id is simply absent). */
export async function liveIds(ctx: Ctx, table: TenantTableName, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await liveRows(ctx, table)
    .where('r.id', 'in', [...ids])
    .select('r.id')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Locks a live, visible row of another module's table for the rest of the transaction (e.g. the client
 * a contact is added to), so modules need not import each other's repositories for it.
 */
export async function lockLive(
  ctx: Ctx,
  table: TenantTableName,
  id: number,
): Promise<{ id: number; updated_at: string } | undefined> {
  return liveRows(ctx, table).where('r.id', '=', id).select(['r.id', 'r.updated_at']).forUpdate().executeTakeFirst();
}

/** 400 INVALID_<ENTITY> when a referenced id is not a live record of this company that the caller may see. */
export async function assertReference(
  ctx: Ctx,
  table: TenantTableName,
  entity: string,
  field: string,
  id: number | null | undefined,
): Promise<void> {
  if (id === null || id === undefined) return;
  if (!(await liveIds(ctx, table, [id])).has(id)) throw invalidReference(entity, field, id);
}

/** For references the spec files under VALIDATION_ERROR with a reason (INVALID_GROUP, INVALID_TOPIC). */
export async function assertReferenceList(
  ctx: Ctx,
  table: TenantTableName,
  reason: string,
  field: string,
  ids: readonly number[] | undefined,
): Promise<void> {
  if (!ids || ids.length === 0) return;
  const found = await liveIds(ctx, table, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw domainValidation(
      reason,
      `${field} contains ids that are not records of this company: ${missing.join(', ')}`,
      { field, invalid_ids: missing },
    );
}
