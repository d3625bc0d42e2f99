import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { nextStamp, nowStamp, firstRecord } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery, type NewRow } from '../../platform/tenant-table.ts';
import { RECLAIM_LIST_OPTIONS, type ReclaimListParams, type ReclaimRecord } from './reclaims.schemas.ts';

export const reclaims = tenantTable('reclaims', {
  alias: 'r',
  lockColumns: ['source_task_id', 'target_task_id', 'undone_at'],
});
type Query = BaseQuery<'reclaims', 'r'>;

const entryIds = sql<number[]>`array(select re.time_entry_id from reclaim_entries re
  where re.company_id = r.company_id and re.reclaim_id = r.id order by re.time_entry_id)`;

function project(query: Query) {
  return query.select([
    'r.id',
    'r.source_task_id',
    'r.target_task_id',
    entryIds.as('time_entry_ids'),
    sql<number>`cardinality(${entryIds})`.as('entry_count'),
    'r.total_seconds',
    'r.note',
    'r.created_by',
    'r.undone_at',
    'r.skipped_entry_ids',
    'r.created_at',
    'r.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<ReclaimListParams>) {
  let q = query;
  const task = filters.task_id;
  if (task !== undefined)
    q = q.where((eb) => eb.or([eb('r.source_task_id', '=', task), eb('r.target_task_id', '=', task)]));
  if (filters.source_task_id !== undefined) q = q.where('r.source_task_id', '=', filters.source_task_id);
  if (filters.target_task_id !== undefined) q = q.where('r.target_task_id', '=', filters.target_task_id);
  if (filters.time_entry_id !== undefined)
    q = q.where(
      sql<boolean>`exists (select 1 from reclaim_entries re where re.company_id = r.company_id
        and re.reclaim_id = r.id and re.time_entry_id = ${filters.time_entry_id})`,
    );
  if (filters.undone !== undefined) q = q.where('r.undone_at', filters.undone ? 'is not' : 'is', null);
  return q;
}

export function listReclaims(ctx: Ctx, params: ReclaimListParams) {
  return listPage<ReclaimRecord, ReclaimListParams>(ctx, {
    listId: 'reclaims',
    params,
    options: RECLAIM_LIST_OPTIONS,
    idColumn: 'r.id',
    project,
    base: (filters) => applyFilters(reclaims.base(ctx), filters),
  });
}

export async function findReclaim(ctx: Ctx, id: number): Promise<ReclaimRecord | undefined> {
  return firstRecord<ReclaimRecord>(project(reclaims.base(ctx).where('r.id', '=', id)));
}

export interface LockedReclaim {
  id: number;
  updated_at: string;
  source_task_id: number;
  target_task_id: number;
  undone_at: string | null;
}
export const lockReclaim = (ctx: Ctx, id: number) => reclaims.lock(ctx, id) as Promise<LockedReclaim | undefined>;

export async function insertReclaim(ctx: Ctx, values: NewRow<'reclaims'>, entryIds: readonly number[]) {
  const id = await reclaims.insert(ctx, values);
  await scoped
    .insert(
      ctx,
      'reclaim_entries',
      entryIds.map((entryId) => ({ reclaim_id: id, time_entry_id: entryId })),
    )
    .execute();
  return id;
}

export async function entryIdsOf(ctx: Ctx, reclaimId: number): Promise<number[]> {
  const rows = await scoped
    .select(ctx, 'reclaim_entries', 're')
    .select('re.time_entry_id')
    .where('re.reclaim_id', '=', reclaimId)
    .orderBy('re.time_entry_id')
    .execute();
  return rows.map((row) => row.time_entry_id);
}

/** undone_at and updated_at from the database's clock, like every other stamp. */
export async function markUndone(ctx: Ctx, id: number, skipped: number[]): Promise<void> {
  await scoped
    .update(ctx, 'reclaims')
    .set({ undone_at: nowStamp(), skipped_entry_ids: skipped, updated_at: nextStamp() })
    .where('id', '=', id)
    .execute();
}
