import type { SupplierTypeListParams } from './supplier-types.schemas.ts';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, firstRecord } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { SUPPLIER_TYPE_LIST_OPTIONS, type SupplierTypeRecord } from './supplier-types.schemas.ts';

export const supplierTypes = tenantTable('supplier_types', { alias: 'st', lockColumns: ['status'] });
type Query = BaseQuery<'supplier_types', 'st'>;

function project(query: Query) {
  return query.select(['st.id', 'st.name', 'st.status', 'st.created_at', 'st.updated_at']);
}

function applyFilters(query: Query, filters: ListFilters<SupplierTypeListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('st.status', 'in', statuses as Array<'active' | 'inactive'>);
  if (filters.q !== undefined) q = q.where('st.name', 'ilike', likeContains(filters.q));
  return q;
}

export function listSupplierTypes(ctx: Ctx, params: SupplierTypeListParams) {
  return listPage<SupplierTypeRecord, SupplierTypeListParams>(ctx, {
    listId: 'supplier-types',
    params,
    options: SUPPLIER_TYPE_LIST_OPTIONS,
    idColumn: 'st.id',
    project,
    base: (filters) => applyFilters(supplierTypes.base(ctx), filters),
  });
}

export async function findSupplierType(ctx: Ctx, id: number): Promise<SupplierTypeRecord | undefined> {
  return firstRecord<SupplierTypeRecord>(project(supplierTypes.base(ctx).where('st.id', '=', id)));
}

/** True when the id names an active supplier type of the caller's company (the only ones a supplier may take). */
export async function isAssignableType(ctx: Ctx, id: number): Promise<boolean> {
  const row = await supplierTypes
    .base(ctx)
    .where('st.id', '=', id)
    .where('st.status', '=', 'active')
    .select('st.id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertDefaultTypes(db: Executor, companyId: string, names: readonly string[]): Promise<void> {
  // tenant: the company being created, not a caller's
  await db
    .insertInto('supplier_types')
    .values(names.map((name) => ({ company_id: companyId, name, status: 'active' })))
    .execute();
}
