import type { ProductFieldListParams } from './product-fields.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, fail } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import type {
  ProductFieldCreateBody,
  ProductFieldKind,
  ProductFieldRecord,
  ProductFieldUpdateBody,
} from './product-fields.schemas.ts';
import * as repo from './product-fields.repository.ts';

const lock = (ctx: Ctx, id: number) => repo.productFields.lock(ctx, id) as Promise<repo.LockedField | undefined>;
const target = { what: 'Product field', lock, read: repo.findProductField };

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
const exists = (kind: string, code: string) =>
  new AppError('PRODUCT_FIELD_EXISTS', `A ${kind} product field with code ${code} already exists`, {
    field: 'code',
    kind,
    code,
  });

function assertWritable(locked: repo.LockedField): void {
  if (locked.is_system)
    fail('PRODUCT_FIELD_READ_ONLY', `Product field ${locked.id} is a system entry and cannot be changed or deleted`, {
      id: locked.id,
    });
}

export const listProductFields = (ctx: Ctx, params: ProductFieldListParams) => repo.listProductFields(ctx, params);

export async function getProductField(ctx: Ctx, id: number): Promise<ProductFieldRecord> {
  return orNotFound(await repo.findProductField(ctx, id), 'Product field');
}

export async function createProductField(ctx: Ctx, body: ProductFieldCreateBody): Promise<ProductFieldRecord> {
  return inTransaction(ctx, async (tx) => {
    if (await repo.codeTaken(tx, body.kind, body.code)) throw exists(body.kind, body.code);
    const id = await repo.productFields
      .insert(tx, {
        kind: body.kind,
        code: body.code,
        name: body.name,
        status: body.status ?? 'active',
        is_system: false,
      })
      .catch((error: unknown) => {
        // A concurrent create of the same code got there first (the unique index decides).
        throw isUniqueViolation(error) ? exists(body.kind, body.code) : error;
      });
    return getProductField(tx, id);
  });
}

export const updateProductField = (ctx: Ctx, id: number, body: ProductFieldUpdateBody) =>
  mutate(ctx, target, id, body, async (tx, locked) => {
    assertWritable(locked);
    if (body.code !== undefined && (await repo.codeTaken(tx, locked.kind, body.code, id)))
      throw exists(locked.kind, body.code);
    await repo.productFields.update(tx, id, body).catch((error: unknown) => {
      throw isUniqueViolation(error) ? exists(locked.kind, body.code ?? locked.code) : error;
    });
  });

/** Refused while a live product or a row of a live contract references it (make it inactive instead). */
export const deleteProductField = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, async (tx, locked) => {
    assertWritable(locked);
    const uses = await repo.countUses(tx, locked.kind as ProductFieldKind, id);
    if (uses.products + uses.contract_rows > 0)
      fail(
        'PRODUCT_FIELD_IN_USE',
        `Product field ${id} is used by ${uses.products} product(s) and ${uses.contract_rows} contract row(s); ` +
          'clear those references or make the field inactive instead',
        uses,
      );
    await repo.productFields.softDelete(tx, id);
  });
