import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { FLEXTIME_LIST_OPTIONS, type FlextimeRowRecord } from './flextime.schemas.ts';

export const flextimeRows = tenantTable('flextime_rows', { alias: 'f', softDelete: true });
type Query = BaseQuery<'flextime_rows', 'f'>;

function project(query: Query) {
  return query.select(['f.id', 'f.person_id', 'f.date', 'f.duration', 'f.description', 'f.created_at', 'f.updated_at']);
}

function applyFilters(query: Query, filters: Record<string, unknown>) {
  let q = query;
  if (filters.person_id !== undefined) q = q.where('f.person_id', '=', filters.person_id as number);
  if (filters.date_from !== undefined) q = q.where('f.date', '>=', filters.date_from as string);
  if (filters.date_to !== undefined) q = q.where('f.date', '<=', filters.date_to as string);
  return q;
}

export function listRows(ctx: Ctx, params: object) {
  return listPage<FlextimeRowRecord>(ctx, {
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
