import type { SupplierListParams } from './suppliers.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import { normalizeIban } from '../../platform/iban.ts';
import type { SupplierCreateBody, SupplierRecord, SupplierUpdateBody } from './suppliers.schemas.ts';
import * as repo from './suppliers.repository.ts';
import { assertSupplierType } from './supplier-types.service.ts';

const target = { what: 'Supplier', lock: repo.suppliers.lock, read: repo.findSupplier };

/** The body as columns: IBAN compacted and checked, country code in capitals, an empty IBAN cleared. */
function columnsFrom(body: SupplierUpdateBody): RowChanges<'suppliers'> {
  const columns: RowChanges<'suppliers'> = { ...body };
  if (typeof body.iban === 'string') columns.iban = body.iban.trim() === '' ? null : normalizeIban('iban', body.iban);
  if (typeof body.address_country_code === 'string')
    columns.address_country_code = body.address_country_code.toUpperCase();
  return columns;
}

export const listSuppliers = (ctx: Ctx, params: SupplierListParams) => repo.listSuppliers(ctx, params);

export async function getSupplier(ctx: Ctx, id: number): Promise<SupplierRecord> {
  return orNotFound(await repo.findSupplier(ctx, id), 'Supplier');
}

export async function createSupplier(ctx: Ctx, body: SupplierCreateBody): Promise<SupplierRecord> {
  const columns = columnsFrom(body);
  return inTransaction(ctx, async (tx) => {
    await assertSupplierType(tx, body.supplier_type_id);
    const id = await repo.suppliers.insert(tx, { status: 'active', ...columns, name: body.name });
    return getSupplier(tx, id);
  });
}

/**
 * A supplier_type_id is checked only when it changes: a supplier keeps a type that was switched off
 * since, and re-sending it is not a new assignment.
 */
export function updateSupplier(ctx: Ctx, id: number, body: SupplierUpdateBody): Promise<SupplierRecord> {
  const columns = columnsFrom(body);
  return mutate(ctx, target, id, body, async (tx, locked) => {
    if (body.supplier_type_id !== locked.supplier_type_id) await assertSupplierType(tx, body.supplier_type_id);
    await repo.suppliers.update(tx, id, columns);
  });
}

export const deleteSupplier = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.suppliers.softDelete(tx, id));
