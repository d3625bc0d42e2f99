import type { SupplierTypeListParams } from './supplier-types.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { invalidReference } from '../../platform/errors.ts';
import { mutate, orNotFound } from '../../platform/mutate.ts';
import type { SupplierTypeRecord, SupplierTypeUpdateBody } from './supplier-types.schemas.ts';
import * as repo from './supplier-types.repository.ts';

const target = { what: 'Supplier type', lock: repo.supplierTypes.lock, read: repo.findSupplierType };

export const listSupplierTypes = (ctx: Ctx, params: SupplierTypeListParams) => repo.listSupplierTypes(ctx, params);

export async function getSupplierType(ctx: Ctx, id: number): Promise<SupplierTypeRecord> {
  return orNotFound(await repo.findSupplierType(ctx, id), 'Supplier type');
}

export const updateSupplierType = (ctx: Ctx, id: number, body: SupplierTypeUpdateBody) =>
  mutate(ctx, target, id, body, (tx) => repo.supplierTypes.update(tx, id, body));

/** 400 INVALID_SUPPLIER_TYPE unless the id is an active supplier type of this company (null clears, always fine). */
export async function assertSupplierType(ctx: Ctx, id: number | null | undefined): Promise<void> {
  if (id === null || id === undefined) return;
  if (!(await repo.isAssignableType(ctx, id))) throw invalidReference('supplier_type', 'supplier_type_id', id);
}
