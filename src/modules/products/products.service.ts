import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { fail } from '../../platform/errors.ts';
import { nullWithoutFinancials } from '../../platform/field-tier.ts';
import { mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import { assertProductReferences, assertTypeArgs } from './products.checks.ts';
import {
  MONEY_FIELDS,
  type ProductCreateBody,
  type ProductListParams,
  type ProductRecord,
  type ProductType,
  type ProductUpdateBody,
} from './products.schemas.ts';
import * as repo from './products.repository.ts';

const forKey = (ctx: Ctx, product: ProductRecord): ProductRecord => nullWithoutFinancials(ctx, product, MONEY_FIELDS);

/** jsonb columns take JSON text; null stays null. */
const json = (value: unknown) => (value === undefined ? undefined : value === null ? null : JSON.stringify(value));

function columnsFrom(body: ProductUpdateBody): RowChanges<'products'> {
  const { type_args, topics, translations, ...plain } = body;
  const columns: RowChanges<'products'> = { ...plain };
  if (type_args !== undefined) columns.type_args = json(type_args);
  if (topics !== undefined) columns.topics = json(topics);
  if (translations !== undefined) columns.translations = json(translations);
  return columns;
}

export async function listProducts(ctx: Ctx, params: ProductListParams) {
  const page = await repo.listProducts(ctx, params);
  return { data: page.data.map((product) => forKey(ctx, product)), meta: page.meta };
}

export async function getProduct(ctx: Ctx, id: number): Promise<ProductRecord> {
  return forKey(ctx, orNotFound(await repo.findProduct(ctx, id), 'Product'));
}

export async function createProduct(ctx: Ctx, body: ProductCreateBody): Promise<ProductRecord> {
  assertTypeArgs(body.type ?? 'service', body.type_args);
  return inTransaction(ctx, async (tx) => {
    await assertProductReferences(tx, body);
    const id = await repo.products.insert(tx, {
      status: 'active',
      type: 'service',
      topics: '[]',
      ...columnsFrom(body),
      name: body.name,
    });
    return getProduct(tx, id);
  });
}

/**
 * PATCH (write tier): the money-bearing fields need financials (the route's money fields: 403 naming them);
 * type_args are checked against the type the product will have. If-Match is honoured when sent.
 */
export async function updateProduct(
  ctx: Ctx,
  id: number,
  body: ProductUpdateBody,
  precondition: Precondition | undefined,
): Promise<ProductRecord> {
  return inTransaction(ctx, async (tx) => {
    const current = orNotFound(await repo.products.lock(tx, id), 'Product');
    if (precondition) assertFresh(precondition, current.updated_at as string);
    if (Object.keys(body).length === 0) return getProduct(tx, id);
    const type = (body.type ?? current.type) as ProductType;
    assertTypeArgs(type, body.type_args === undefined ? current.type_args : body.type_args);
    await assertProductReferences(tx, body, current.tax_id as number | null);
    await repo.products.update(tx, id, columnsFrom(body));
    return getProduct(tx, id);
  });
}

/** 409 PRODUCT_IN_USE while a live contract's row or any invoice row bills with the product. */
export async function assertNotInUse(ctx: Ctx, id: number, code: 'PRODUCT_IN_USE' | 'LAST_PRICE_REQUIRED') {
  const use = await repo.productUse(ctx, id);
  if (!use.contract_rows && !use.invoice_rows) return;
  const where = [use.contract_rows ? 'contract rows' : '', use.invoice_rows ? 'invoice rows' : ''].filter(Boolean);
  const message =
    code === 'PRODUCT_IN_USE'
      ? `Product ${id} is used by ${where.join(' and ')}; set status inactive to retire it instead`
      : `Product ${id} is used by ${where.join(' and ')} and must keep at least one price`;
  fail(code, message, { product_id: id, ...use });
}

export const deleteProduct = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, { what: 'Product', lock: repo.products.lock }, id, async (tx) => {
    await assertNotInUse(tx, id, 'PRODUCT_IN_USE');
    await repo.products.softDelete(tx, id);
  });
