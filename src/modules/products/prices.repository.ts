import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { moneyOut } from '../../platform/money.ts';
import { firstRecord } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery, tenant } from '../../platform/tenant-table.ts';
import { companyCurrency } from '../companies/index.ts';
import { PRICE_LIST_OPTIONS, type ProductPriceListParams, type ProductPriceRecord } from './products.schemas.ts';

export const prices = tenantTable('product_prices', { alias: 'pp', lockColumns: ['product_id'] });
type Query = BaseQuery<'product_prices', 'pp'>;
type PriceRow = Omit<ProductPriceRecord, 'net_price'> & { net_price: string };

function project(query: Query) {
  return query.select([
    'pp.id',
    'pp.product_id',
    'pp.net_price',
    'pp.currency',
    'pp.active_from',
    'pp.created_at',
    'pp.updated_at',
  ]);
}

const toRecord = (row: PriceRow): ProductPriceRecord => ({ ...row, net_price: moneyOut(row.net_price)! });

const ofProduct = (ctx: Ctx, productId: number) => prices.base(ctx).where('pp.product_id', '=', productId);

export async function listPrices(ctx: Ctx, productId: number, params: ProductPriceListParams) {
  const page = await listPage<PriceRow, ProductPriceListParams>(ctx, {
    listId: 'product-prices',
    params,
    options: PRICE_LIST_OPTIONS,
    idColumn: 'pp.id',
    project,
    base: () => ofProduct(ctx, productId),
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

export async function findPrice(ctx: Ctx, productId: number, id: number): Promise<ProductPriceRecord | undefined> {
  const row = await firstRecord<PriceRow>(project(ofProduct(ctx, productId).where('pp.id', '=', id)));
  return row && toRecord(row);
}

/** Locks a price of this product for the rest of the transaction. */
export async function lockPrice(ctx: Ctx, productId: number, id: number) {
  return ofProduct(ctx, productId)
    .where('pp.id', '=', id)
    .select(['pp.id', 'pp.updated_at'])
    .forUpdate()
    .executeTakeFirst();
}

/** The id of another price of the product starting the same day in the same currency (null: company currency). */
export async function samePriceSlot(
  ctx: Ctx,
  productId: number,
  slot: { currency: string | null; active_from: string },
  exceptId?: number,
): Promise<number | undefined> {
  let query = ofProduct(ctx, productId)
    .where('pp.active_from', '=', slot.active_from)
    .where(sql<boolean>`pp.currency is not distinct from ${slot.currency}`);
  if (exceptId !== undefined) query = query.where('pp.id', '<>', exceptId);
  return (await query.select('pp.id').executeTakeFirst())?.id;
}

export async function countPrices(ctx: Ctx, productId: number): Promise<number> {
  const row = await ofProduct(ctx, productId)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** A value bound into the SQL, or an expression of the reader's query (a column of the row it prices). */
export type SqlOperand = RawBuilder<unknown> | number | string;

/**
 * The price in effect (the rule, one definition for the price routes, invoices and the billing engine): of
 * product `product`, on day `day`, in currency `currency`, the net_price with the latest active_from on or before
 * the day, in that currency or, when `currency` is the company's, with no currency; at the same active_from an
 * explicit currency wins, then the newest row. A scalar subquery: null when no price applies.
 */
export function priceInEffectSql(
  ctx: Ctx,
  at: { product: SqlOperand; day: SqlOperand; currency: SqlOperand; companyCurrency: SqlOperand },
): RawBuilder<string | null> {
  // tenant: deliberate SQL — product_prices filtered by company_id.
  return sql<string | null>`(select pp.net_price from product_prices pp
          where ${tenant(ctx, 'pp')} and pp.product_id = ${at.product}
            and pp.active_from <= ${at.day}
            and (pp.currency = ${at.currency} or (pp.currency is null and ${at.currency} = ${at.companyCurrency}::text))
          order by pp.active_from desc, pp.currency is null, pp.id desc limit 1)`;
}

/** The days a product's price can change: the active_from of each of its prices, any currency. */
export function priceStartsSql(ctx: Ctx, product: SqlOperand): RawBuilder<{ active_from: string }> {
  // tenant: deliberate SQL — product_prices filtered by company_id.
  return sql`select pp.active_from from product_prices pp
           where ${tenant(ctx, 'pp')} and pp.product_id = ${product}`;
}

/** Whether any live product has a price starting on or before `day` (the reports' bi_state "has a price"). */
export function anyProductPriceSql(ctx: Ctx, day: SqlOperand): RawBuilder<boolean> {
  // tenant: deliberate SQL — product_prices filtered by company_id, products joined on it.
  return sql<boolean>`exists (select 1 from product_prices pp join products p on p.company_id = pp.company_id and p.id = pp.product_id
                where ${tenant(ctx, 'pp')} and p.deleted_at is null and pp.active_from <= ${day})`;
}

/**
 * The net price (exact decimal text) of a product effective on `date` in `currency`: the price with the
 * latest active_from on or before the date, in that currency or (when `currency` is the company's) with
 * no currency; at the same active_from an explicit currency wins. Undefined when none applies.
 */
export async function priceOn(
  ctx: Ctx,
  productId: number,
  date: string,
  currency?: string | null,
): Promise<string | undefined> {
  // The company's currency is what a null currency means.
  const company = { currency: await companyCurrency(ctx) };
  const wanted = currency ?? company.currency;
  const price = priceInEffectSql(ctx, {
    product: productId,
    day: sql`${date}::date`,
    currency: sql`${wanted}::text`,
    companyCurrency: company.currency,
  });
  const result = await sql<{ net_price: string | null }>`select ${price}::text as net_price`.execute(ctx.db);
  return result.rows[0]?.net_price ?? undefined;
}
