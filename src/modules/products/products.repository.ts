import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { moneyOut } from '../../platform/money.ts';
import { cappedIds, likeContains } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import {
  PRODUCT_LIST_OPTIONS,
  type ProductListParams,
  type ProductPriceRecord,
  type ProductRecord,
} from './products.schemas.ts';

export const products = tenantTable('products', {
  alias: 'p',
  softDelete: true,
  lockColumns: ['type', 'type_args', 'tax_id'],
});

function withTax(query: BaseQuery<'products', 'p'>) {
  return query.leftJoin('taxes as t', (join) =>
    join.onRef('t.company_id', '=', 'p.company_id').onRef('t.id', '=', 'p.tax_id'),
  );
}
type Query = ReturnType<typeof withTax>;

// tenant: deliberate SQL — the prices are the product's own rows, matched on the product's company.
const pricesJson = sql<ProductPriceRecord[]>`coalesce((
  select json_agg(json_build_object(
    'id', pp.id, 'product_id', pp.product_id, 'net_price', pp.net_price, 'currency', pp.currency,
    'active_from', to_char(pp.active_from, 'YYYY-MM-DD'),
    'created_at', to_char(pp.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(pp.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    order by pp.active_from, pp.currency nulls first, pp.id)
  from product_prices pp where pp.company_id = p.company_id and pp.product_id = p.id), '[]'::json)`;

function project(query: Query) {
  return query.select([
    'p.id',
    'p.name',
    'p.status',
    'p.type',
    'p.type_args',
    'p.unit',
    'p.pricelist_type',
    'p.bill_by',
    'p.billable_filter',
    'p.topics',
    'p.translations',
    'p.tax_id',
    't.rate as tax_rate',
    't.name as tax_name',
    'p.article_id',
    'p.resource_id',
    'p.billing_project_id',
    'p.ext_variable',
    pricesJson.as('prices'),
    'p.created_at',
    'p.updated_at',
  ]);
}

type ProductRow = Omit<ProductRecord, 'tax_rate' | 'topics'> & { tax_rate: string | null; topics: number[] | null };

function toRecord(row: ProductRow): ProductRecord {
  return { ...row, tax_rate: moneyOut(row.tax_rate), topics: row.topics ?? [] };
}

function applyFilters(query: Query, filters: ListFilters<ProductListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('p.status', 'in', statuses as Array<'active' | 'inactive'>);
  const types = splitList(filters.type);
  if (types) q = q.where('p.type', 'in', types);
  if (filters.q !== undefined) q = q.where('p.name', 'ilike', likeContains(filters.q));
  return q;
}

export async function listProducts(ctx: Ctx, params: ProductListParams) {
  const page = await listPage<ProductRow, ProductListParams>(ctx, {
    listId: 'products',
    params,
    options: PRODUCT_LIST_OPTIONS,
    idColumn: 'p.id',
    project,
    base: (filters) => applyFilters(withTax(products.base(ctx)), filters),
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

export async function findProduct(ctx: Ctx, id: number): Promise<ProductRecord | undefined> {
  const row = await project(withTax(products.base(ctx)).where('p.id', '=', id)).executeTakeFirst();
  return row && toRecord(row as unknown as ProductRow);
}

/**
 * Whether anything bills with the product: a row of a live (not deleted) contract, or any invoice row
 * (invoices are never deleted, and an issued one must keep pointing at a live product).
 */
export async function productUse(ctx: Ctx, id: number): Promise<{ contract_rows: boolean; invoice_rows: boolean }> {
  const contractRow = await scoped
    .select(ctx, 'contract_rows', 'cr')
    .innerJoin('contracts as c', (join) =>
      join.onRef('c.company_id', '=', 'cr.company_id').onRef('c.id', '=', 'cr.contract_id'),
    )
    .where('cr.product_id', '=', id)
    .where('c.deleted_at', 'is', null)
    .select('cr.id')
    .limit(1)
    .executeTakeFirst();
  const invoiceRow = await scoped
    .select(ctx, 'invoice_rows', 'ir')
    .where('ir.product_id', '=', id)
    .select('ir.id')
    .limit(1)
    .executeTakeFirst();
  return { contract_rows: contractRow !== undefined, invoice_rows: invoiceRow !== undefined };
}

/** Whether the product is a live product of the company (reads of its prices answer 404 otherwise). */
export async function productExists(ctx: Ctx, id: number): Promise<boolean> {
  return (await products.base(ctx).where('p.id', '=', id).select('p.id').executeTakeFirst()) !== undefined;
}

/** What contract and invoice rows need of the products a body names (deleted products are absent). */
export interface ProductFacts {
  id: number;
  name: string;
  status: string;
  unit: string | null;
  tax_id: number | null;
  priced: boolean;
}

export async function productFacts(ctx: Ctx, ids: readonly number[]): Promise<Map<number, ProductFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await scoped
    .select(ctx, 'products', 'pr')
    .where('pr.deleted_at', 'is', null)
    .where('pr.id', 'in', [...ids])
    .select([
      'pr.id',
      'pr.name',
      'pr.status',
      'pr.unit',
      'pr.tax_id',
      sql<boolean>`exists (select 1 from product_prices pp where pp.company_id = pr.company_id
        and pp.product_id = pr.id)`.as('priced'),
    ])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** For an accounting sync: the live products, counted, with the first ids. */
export const productsForSync = (ctx: Ctx, cap: number) =>
  cappedIds(scoped.select(ctx, 'products', 'x').where('x.deleted_at', 'is', null), cap);
