import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { nextStamp } from '../../platform/sql.ts';
import { scoped, tenantTable } from '../../platform/tenant-table.ts';
import { idVisible, rowVisible } from '../../platform/visibility.ts';

// What other modules ask of a client, answered here so that only this module names the clients table.

/**
 * Whether the row's client is live: a correlated test for another module's query, the client named by the row's
 * company and client id columns (e.g. 'cm.company_id', 'cm.client_id').
 */
export const liveClientSql = (companyRef: string, idRef: string): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from clients lc where lc.company_id = ${sql.ref(companyRef)}
    and lc.id = ${sql.ref(idRef)} and lc.deleted_at is null)`;

/** The same test for a live client with status active (a group with any cannot be deleted). */
export const activeClientSql = (companyRef: string, idRef: string): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from clients lc where lc.company_id = ${sql.ref(companyRef)}
    and lc.id = ${sql.ref(idRef)} and lc.deleted_at is null and lc.status = 'active')`;

/** The live clients among `ids`, company-wide (whatever the caller may see), in id order. */
export async function liveClientIds(ctx: Ctx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const live = await scoped
    .select(ctx, 'clients', 'c')
    .select('c.id')
    .where('c.id', 'in', [...ids])
    .where('c.deleted_at', 'is', null)
    .orderBy('c.id')
    .execute();
  return live.map((r) => r.id);
}

/** Whether the client is live and the caller may see it (reads; writes lock it instead). */
export async function clientSeen(ctx: Ctx, clientId: number): Promise<boolean> {
  const row = await scoped
    .select(ctx, 'clients', 'c')
    .select('c.id')
    .where('c.id', '=', clientId)
    .where('c.deleted_at', 'is', null)
    .where(rowVisible(ctx, 'clients', 'c'))
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the acting person may manage a client: owners, admins and integration keys always; members when they see it. */
export async function clientManageable(ctx: Ctx, clientId: number): Promise<boolean> {
  const row = await scoped
    .select(ctx, 'clients', 'c')
    .select('c.id')
    .where('c.id', '=', clientId)
    .where(idVisible(ctx, 'clients', 'c.company_id', 'c.id'))
    .executeTakeFirst();
  return row !== undefined;
}

/** What a client e-mail is addressed from: the client's name and locale (the caller has locked the client). */
export async function mailClient(ctx: Ctx, clientId: number) {
  return scoped
    .select(ctx, 'clients', 'c')
    .select(['c.id', 'c.name', 'c.locale_code'])
    .where('c.id', '=', clientId)
    .executeTakeFirst();
}

/**
 * Locks the clients' rows (deleted ones too) in id order, so concurrent writers of a client's derived flag (the
 * monitors) take turns and each recomputes it from committed rows.
 */
export async function lockClientRows(ctx: Ctx, ids: readonly number[]): Promise<void> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length === 0) return;
  await scoped
    .select(ctx, 'clients', 'c')
    .where('c.id', 'in', unique)
    .select('c.id')
    .orderBy('c.id')
    .forUpdate()
    .execute();
}

/**
 * Sets has_monitor to `flag`, the monitors module's test correlated on the client row (`clients.company_id`,
 * `clients.id`): one UPDATE through the gateway, which moves updated_at (the ETag) only when the flag really changes.
 */
export async function setHasMonitor(ctx: Ctx, ids: readonly number[], flag: RawBuilder<number>): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  await scoped
    .update(ctx, 'clients')
    .set({ has_monitor: flag, updated_at: nextStamp() })
    .where(sql<boolean>`id = any(${unique}::int[])`)
    .where(sql<boolean>`has_monitor <> ${flag}`)
    .execute();
}

/** The clients the client workflow writes under: live, and for a plain member's key only those they see. */
const workflowClients = tenantTable('clients', { alias: 'c', softDelete: true, lockColumns: ['default_person_id'] });

/** The live client, if the caller sees it (a client workflow route's path client). */
export const visibleClient = (ctx: Ctx, id: number) =>
  workflowClients.base(ctx).where('c.id', '=', id).select('c.id').executeTakeFirst();

/** Locks the live, visible client with its manager (default_person_id) for the rest of the transaction. */
export const lockClientManager = (ctx: Ctx, id: number) => workflowClients.lock(ctx, id);

/** Sets the client's manager (its default_person_id, the responsible person the visibility rules read). */
export const setClientManager = (ctx: Ctx, id: number, personId: number | null) =>
  workflowClients.update(ctx, id, { default_person_id: personId });

/** Locks the live clients among `ids` that the actor sees (serialising with membership writes on them). */
export async function lockVisibleClients(ctx: Ctx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await workflowClients
    .base(ctx)
    .where('c.id', 'in', [...ids])
    .select('c.id')
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

/** The live clients among `ids` the actor sees, in id order (a bulk job's targets). */
export async function visibleClientIds(ctx: Ctx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await workflowClients
    .base(ctx)
    .where('c.id', 'in', [...ids])
    .select('c.id')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => r.id);
}
