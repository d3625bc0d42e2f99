import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { FLEXTIME_LIST_OPTIONS, type FlextimeListParams, type FlextimeRowRecord } from './flextime.schemas.ts';

export const flextimeRows = tenantTable('flextime_rows', { alias: 'f', softDelete: true });
type Query = BaseQuery<'flextime_rows', 'f'>;

function project(query: Query) {
  return query.select(['f.id', 'f.person_id', 'f.date', 'f.duration', 'f.description', 'f.created_at', 'f.updated_at']);
}

function applyFilters(query: Query, filters: ListFilters<FlextimeListParams>) {
  let q = query;
  if (filters.person_id !== undefined) q = q.where('f.person_id', '=', filters.person_id);
  if (filters.date_from !== undefined) q = q.where('f.date', '>=', filters.date_from);
  if (filters.date_to !== undefined) q = q.where('f.date', '<=', filters.date_to);
  return q;
}

export function listRows(ctx: Ctx, params: FlextimeListParams) {
  return listPage<FlextimeRowRecord, FlextimeListParams>(ctx, {
    listId: 'flextime',
    params,
    options: FLEXTIME_LIST_OPTIONS,
    idColumn: 'f.id',
    project,
    base: (filters) => applyFilters(flextimeRows.base(ctx), filters),
  });
}

export async function findRow(ctx: Ctx, id: number): Promise<FlextimeRowRecord | undefined> {
  return project(flextimeRows.base(ctx).where('f.id', '=', id)).executeTakeFirst();
}
