import type { DelegationListParams } from './delegations.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { localToday } from '../../platform/dates.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { DELEGATION_LIST_OPTIONS, type DelegationRecord } from './delegations.schemas.ts';
import { firstRecord } from '../../platform/sql.ts';

/** A plain member's personal key sees the delegations they give or receive (the `visibility` its module declares). */
export const delegations = tenantTable('delegations', {
  alias: 'dg',
  softDelete: true,
  lockColumns: ['delegator_id', 'delegate_id', 'date_from', 'date_until'],
});
type Query = BaseQuery<'delegations', 'dg'>;

const today = (ctx: Ctx) => localToday(ctx.company.timezone);

function project(ctx: Ctx) {
  const day = today(ctx);
  return (query: Query) =>
    query.select([
      'dg.id',
      'dg.delegator_id',
      'dg.delegate_id',
      'dg.date_from',
      'dg.date_until',
      'dg.scope',
      'dg.note',
      sql<boolean>`(dg.date_from <= ${day}::date and dg.date_until >= ${day}::date)`.as('active'),
      'dg.created_at',
      'dg.updated_at',
    ]);
}

function applyFilters(ctx: Ctx, query: Query, filters: ListFilters<DelegationListParams>) {
  let q = query;
  if (filters.delegator_id !== undefined) q = q.where('dg.delegator_id', '=', filters.delegator_id);
  if (filters.delegate_id !== undefined) q = q.where('dg.delegate_id', '=', filters.delegate_id);
  if (filters.active !== undefined) {
    const day = today(ctx);
    const active = sql<boolean>`(dg.date_from <= ${day}::date and dg.date_until >= ${day}::date)`;
    q = q.where(filters.active ? active : sql<boolean>`not ${active}`);
  }
  return q;
}

export function listDelegations(ctx: Ctx, params: DelegationListParams) {
  return listPage<DelegationRecord, DelegationListParams>(ctx, {
    listId: 'delegations',
    params,
    options: DELEGATION_LIST_OPTIONS,
    idColumn: 'dg.id',
    project: project(ctx),
    base: (filters) => applyFilters(ctx, delegations.base(ctx), filters),
  });
}

export async function findDelegation(ctx: Ctx, id: number): Promise<DelegationRecord | undefined> {
  return firstRecord<DelegationRecord>(project(ctx)(delegations.base(ctx).where('dg.id', '=', id)));
}
