import type { InvoiceSellerListParams } from './invoice-sellers.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { cappedIds, likeContains, firstRecord } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { SELLER_LIST_OPTIONS, type InvoiceSellerRecord } from './invoice-sellers.schemas.ts';

export const sellers = tenantTable('invoice_sellers', { alias: 's' });
type Query = BaseQuery<'invoice_sellers', 's'>;

function project(query: Query) {
  return query.select([
    's.id',
    's.name',
    's.status',
    's.address',
    's.company_number',
    's.vat_number',
    's.bank_1',
    's.iban_1',
    's.bank_2',
    's.iban_2',
    's.logo_url',
    's.endpoint_id',
    's.endpoint_scheme',
    's.phone',
    's.address_city',
    's.address_zip',
    's.created_at',
    's.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<InvoiceSellerListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('s.status', 'in', statuses as Array<'active' | 'archived'>);
  if (filters.q !== undefined) q = q.where('s.name', 'ilike', likeContains(filters.q));
  return q;
}

export function listSellers(ctx: Ctx, params: InvoiceSellerListParams) {
  return listPage<InvoiceSellerRecord, InvoiceSellerListParams>(ctx, {
    listId: 'invoice-sellers',
    params,
    options: SELLER_LIST_OPTIONS,
    idColumn: 's.id',
    project,
    base: (filters) => applyFilters(sellers.base(ctx), filters),
  });
}

export async function findSeller(ctx: Ctx, id: number): Promise<InvoiceSellerRecord | undefined> {
  return firstRecord<InvoiceSellerRecord>(project(sellers.base(ctx).where('s.id', '=', id)));
}

/** Whether the seller is an active seller of the caller's company. */
export async function isActiveSeller(ctx: Ctx, sellerId: number): Promise<boolean> {
  const row = await scoped
    .select(ctx, 'invoice_sellers', 's')
    .where('s.id', '=', sellerId)
    .where('s.status', '=', 'active')
    .select('s.id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The seller as an invoice copies it, so later edits never change an issued invoice. */
export interface SellerSnapshot {
  seller_name: string | null;
  seller_reg_code: string | null;
  seller_vat_code: string | null;
  seller_address: string | null;
  seller_bank: string | null;
  seller_iban: string | null;
  seller_endpoint_id: string | null;
  seller_endpoint_scheme: string | null;
  seller_phone: string | null;
  seller_city: string | null;
  seller_zip: string | null;
}

/** The company's seller (archived ones only when `activeOnly` is false), or undefined. */
export async function sellerSnapshot(ctx: Ctx, sellerId: number, activeOnly: boolean) {
  let query = scoped.select(ctx, 'invoice_sellers', 's').where('s.id', '=', sellerId);
  if (activeOnly) query = query.where('s.status', '=', 'active');
  return firstRecord<SellerSnapshot>(
    query.select([
      's.name as seller_name',
      's.company_number as seller_reg_code',
      's.vat_number as seller_vat_code',
      's.address as seller_address',
      's.bank_1 as seller_bank',
      's.iban_1 as seller_iban',
      's.endpoint_id as seller_endpoint_id',
      's.endpoint_scheme as seller_endpoint_scheme',
      's.phone as seller_phone',
      's.address_city as seller_city',
      's.address_zip as seller_zip',
    ]),
  );
}

/** For an accounting sync: every seller (old invoices name archived ones too), counted, with the first ids. */
export const sellersForSync = (ctx: Ctx, cap: number) => cappedIds(scoped.select(ctx, 'invoice_sellers', 'x'), cap);
