import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { setHasMonitor } from '../clients/index.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { moneyOut } from '../../platform/money.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { MONITOR_LIST_OPTIONS, type MonitorListParams, type MonitorRecord } from './monitors.schemas.ts';

export const monitors = tenantTable('monitors', {
  alias: 'mo',
  softDelete: true,
  lockColumns: ['client_id', 'type', 'role_person_id', 'frequency', 'active', 'value', 'range_value'],
});
type Query = BaseQuery<'monitors', 'mo'>;
type MonitorRow = Omit<MonitorRecord, 'value' | 'range_value'> & { value: string; range_value: string | null };

/** The stored monitor a write starts from (amounts as exact numeric text). */
export type LockedMonitor = Omit<MonitorRow, 'created_at'>;

/** What makes two monitors the same one (409 MONITOR_EXISTS). */
export type Identity = Pick<MonitorRow, 'client_id' | 'type' | 'role_person_id' | 'frequency'>;
/** The threshold band [value, range_value] (range_value null: no upper end). */
export type Band = Pick<MonitorRow, 'client_id' | 'type' | 'value' | 'range_value'>;

function project(query: Query) {
  return query.select([
    'mo.id',
    'mo.client_id',
    'mo.type',
    'mo.role_person_id',
    'mo.frequency',
    'mo.active',
    'mo.value',
    'mo.range_value',
    'mo.created_at',
    'mo.updated_at',
  ]);
}

const toRecord = (row: MonitorRow): MonitorRecord => ({
  ...row,
  value: moneyOut(row.value)!,
  range_value: moneyOut(row.range_value),
});

function applyFilters(query: Query, filters: ListFilters<MonitorListParams>, clientId: number | undefined) {
  let q = query;
  const client = clientId ?? filters.client_id;
  if (client !== undefined) q = q.where('mo.client_id', '=', client);
  const types = splitList(filters.type);
  if (types) q = q.where('mo.type', 'in', types as Array<MonitorRow['type']>);
  const frequencies = splitList(filters.frequency);
  if (frequencies) q = q.where('mo.frequency', 'in', frequencies as Array<MonitorRow['frequency']>);
  if (filters.role_person_id !== undefined) q = q.where('mo.role_person_id', '=', filters.role_person_id);
  if (filters.active !== undefined) q = q.where('mo.active', '=', filters.active);
  return q;
}

/** The company's monitors, or one client's (the nested route; its cursors are valid for that client only). */
export async function listMonitors(ctx: Ctx, params: MonitorListParams, clientId?: number) {
  const page = await listPage<MonitorRow, MonitorListParams>(ctx, {
    listId: clientId === undefined ? 'monitors' : `client-monitors:${clientId}`,
    params,
    options: MONITOR_LIST_OPTIONS,
    idColumn: 'mo.id',
    project,
    base: (filters) => applyFilters(monitors.base(ctx), filters, clientId),
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

export async function findMonitor(ctx: Ctx, id: number): Promise<MonitorRecord | undefined> {
  const row = (await project(monitors.base(ctx).where('mo.id', '=', id)).executeTakeFirst()) as MonitorRow | undefined;
  return row && toRecord(row);
}

export const lockMonitor = (ctx: Ctx, id: number) => monitors.lock(ctx, id) as Promise<LockedMonitor | undefined>;

/** The live monitor with the same identity, other than `exceptId`, if any. */
export async function sameIdentity(ctx: Ctx, identity: Identity, exceptId = 0): Promise<number | undefined> {
  const row = await monitors
    .base(ctx)
    .where('mo.client_id', '=', identity.client_id)
    .where('mo.type', '=', identity.type)
    .where('mo.frequency', '=', identity.frequency)
    .where(sql<boolean>`coalesce(mo.role_person_id, 0) = ${identity.role_person_id ?? 0}`)
    .where('mo.id', '<>', exceptId)
    .select('mo.id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * Active live monitors of the same client and type whose band meets [value, range_value]: closed intervals
 * overlap when each starts no later than the other ends (a null range_value never ends).
 */
export async function overlappingIds(ctx: Ctx, band: Band, exceptId: number): Promise<number[]> {
  let query = monitors
    .base(ctx)
    .where('mo.client_id', '=', band.client_id)
    .where('mo.type', '=', band.type)
    .where('mo.active', '=', true)
    .where('mo.id', '<>', exceptId)
    .where((eb) => eb.or([eb('mo.range_value', 'is', null), eb('mo.range_value', '>=', band.value)]));
  if (band.range_value !== null) query = query.where('mo.value', '<=', band.range_value);
  const rows = await query.select('mo.id').orderBy('mo.id').execute();
  return rows.map((row) => row.id);
}

/**
 * clients.has_monitor is 1 while the client has an active live monitor: the test is this module's (its table),
 * written by the clients module's one UPDATE, which moves the client's ETag only when the flag really changes.
 */
export async function syncHasMonitor(ctx: Ctx, ids: readonly number[]): Promise<void> {
  // tenant: deliberate SQL, correlated on the client row the gateway's UPDATE already scopes to the company.
  const flag = sql<number>`(exists (select 1 from monitors m where m.company_id = clients.company_id
    and m.client_id = clients.id and m.active and m.deleted_at is null))::int::smallint`;
  await setHasMonitor(ctx, ids, flag);
}
