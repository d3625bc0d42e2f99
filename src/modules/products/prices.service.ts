import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { fail, notFound } from '../../platform/errors.ts';
import { AMOUNT, decimalInput } from '../../platform/money.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import { assertCurrency } from '../billing-settings/index.ts';
import type {
  ProductPriceCreateBody,
  ProductPriceListParams,
  ProductPriceRecord,
  ProductPriceUpdateBody,
} from './products.schemas.ts';
import { productExists, products } from './products.repository.ts';
import { assertNotInUse } from './products.service.ts';
import * as repo from './prices.repository.ts';

/** Stored and answered when a price is created without active_from (spec, Product). */
export const DEFAULT_ACTIVE_FROM = '2000-01-01';

function columnsFrom(body: ProductPriceUpdateBody): RowChanges<'product_prices'> {
  assertCurrency('currency', body.currency);
  const { net_price, ...plain } = body;
  return net_price === undefined
    ? plain
    : { ...plain, net_price: decimalInput('net_price', net_price, AMOUNT.unitPrice) };
}

/**
 * Every price write locks the product first: writes to one product's prices queue (so the one-price-per-
 * day-and-currency check and the last-price check hold), and a price of a deleted product is 404.
 */
async function lockProduct(ctx: Ctx, productId: number): Promise<void> {
  orNotFound(await products.lock(ctx, productId), 'Product');
}

async function assertFreeSlot(
  ctx: Ctx,
  productId: number,
  slot: { currency: string | null; active_from: string },
  self?: number,
) {
  const other = await repo.samePriceSlot(ctx, productId, slot, self);
  if (other !== undefined)
    fail(
      'PRICE_EXISTS',
      `Price ${other} already starts on ${slot.active_from} in ${slot.currency ?? 'the company currency'}`,
      {
        price_id: other,
        active_from: slot.active_from,
        currency: slot.currency,
      },
    );
}

/** 404 unless the product is a live product of the company. */
export async function assertProduct(ctx: Ctx, productId: number): Promise<void> {
  if (!(await productExists(ctx, productId))) throw notFound('Product');
}

export async function listPrices(ctx: Ctx, productId: number, params: ProductPriceListParams) {
  await assertProduct(ctx, productId);
  return repo.listPrices(ctx, productId, params);
}

/** A price as stored (the product is known to be live: locked or checked by the caller). */
async function priceOf(ctx: Ctx, productId: number, id: number): Promise<ProductPriceRecord> {
  return orNotFound(await repo.findPrice(ctx, productId, id), 'Price');
}

export async function getPrice(ctx: Ctx, productId: number, id: number): Promise<ProductPriceRecord> {
  await assertProduct(ctx, productId);
  return priceOf(ctx, productId, id);
}

export async function createPrice(
  ctx: Ctx,
  productId: number,
  body: ProductPriceCreateBody,
): Promise<ProductPriceRecord> {
  const columns = columnsFrom(body);
  return inTransaction(ctx, async (tx) => {
    await lockProduct(tx, productId);
    const slot = { currency: body.currency ?? null, active_from: body.active_from ?? DEFAULT_ACTIVE_FROM };
    await assertFreeSlot(tx, productId, slot);
    const id = await repo.prices.insert(tx, {
      ...columns,
      ...slot,
      net_price: columns.net_price!,
      product_id: productId,
    });
    // The product inlines its prices: its version (ETag) moves with them.
    await products.update(tx, productId, {});
    return priceOf(tx, productId, id);
  });
}

export async function updatePrice(
  ctx: Ctx,
  productId: number,
  id: number,
  body: ProductPriceUpdateBody,
  precondition: Precondition | undefined,
): Promise<ProductPriceRecord> {
  const columns = columnsFrom(body);
  return inTransaction(ctx, async (tx) => {
    await lockProduct(tx, productId);
    const current = orNotFound(await repo.lockPrice(tx, productId, id), 'Price');
    if (precondition) assertFresh(precondition, current.updated_at);
    if (Object.keys(body).length === 0) return priceOf(tx, productId, id);
    const stored = await priceOf(tx, productId, id);
    const slot = {
      currency: body.currency === undefined ? stored.currency : body.currency,
      active_from: body.active_from ?? stored.active_from,
    };
    await assertFreeSlot(tx, productId, slot, id);
    await repo.prices.update(tx, id, columns);
    await products.update(tx, productId, {});
    return priceOf(tx, productId, id);
  });
}

/** Prices are removed for good (they carry no deleted_at); a product in use keeps at least one. */
export async function deletePrice(ctx: Ctx, productId: number, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await lockProduct(tx, productId);
    orNotFound(await repo.lockPrice(tx, productId, id), 'Price');
    if ((await repo.countPrices(tx, productId)) === 1) await assertNotInUse(tx, productId, 'LAST_PRICE_REQUIRED');
    await repo.prices.remove(tx, id);
    await products.update(tx, productId, {});
  });
}
