import type { SupplierListParams } from './suppliers.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, firstRecord } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { SUPPLIER_LIST_OPTIONS, type SupplierRecord } from './suppliers.schemas.ts';

export const suppliers = tenantTable('suppliers', { alias: 's', softDelete: true, lockColumns: ['supplier_type_id'] });
type Query = BaseQuery<'suppliers', 's'>;

function project(query: Query) {
  return query.select([
    's.id',
    's.name',
    's.supplier_type_id',
    's.status',
    's.company_number',
    's.vat_number',
    's.email',
    's.phone',
    's.address_street',
    's.address_city',
    's.address_zip',
    's.address_country_code',
    's.iban',
    's.payment_term_days',
    's.created_at',
    's.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<SupplierListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('s.status', 'in', statuses as Array<'active' | 'inactive'>);
  if (filters.supplier_type_id !== undefined) q = q.where('s.supplier_type_id', '=', filters.supplier_type_id);
  if (filters.q !== undefined) {
    const pattern = likeContains(filters.q);
    q = q.where((eb) =>
      eb.or([
        eb('s.name', 'ilike', pattern),
        eb('s.company_number', 'ilike', pattern),
        eb('s.vat_number', 'ilike', pattern),
        eb('s.email', 'ilike', pattern),
      ]),
    );
  }
  return q;
}

export function listSuppliers(ctx: Ctx, params: SupplierListParams) {
  return listPage<SupplierRecord, SupplierListParams>(ctx, {
    listId: 'suppliers',
    params,
    options: SUPPLIER_LIST_OPTIONS,
    idColumn: 's.id',
    project,
    base: (filters) => applyFilters(suppliers.base(ctx), filters),
  });
}

export async function findSupplier(ctx: Ctx, id: number): Promise<SupplierRecord | undefined> {
  return firstRecord<SupplierRecord>(project(suppliers.base(ctx).where('s.id', '=', id)));
}
