import type { IntegrationInvoiceListParams } from './integrations.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { moneyOut } from '../../platform/money.ts';
import { clientsForSync } from '../clients/index.ts';
import { invoiceRowCount, notExportedInvoices, type NotExportedQuery } from '../invoices/index.ts';
import { sellersForSync } from '../invoice-sellers/index.ts';
import { productsForSync } from '../products/index.ts';
import { taxesForSync } from '../taxes/index.ts';
import {
  EXPORTABLE_STATUSES,
  INTEGRATION_INVOICE_LIST_OPTIONS,
  SUMMARY_ID_CAP,
  type EntitySummary,
  type IntegrationInvoiceRecord,
  type SyncEntity,
} from './integrations.schemas.ts';

type Status = (typeof EXPORTABLE_STATUSES)[number];

type Query = NotExportedQuery;

function project(query: Query) {
  return query.select([
    'i.id',
    'i.invoice_number',
    'i.status',
    'i.client_id',
    'i.contract_id',
    'i.seller_id',
    'i.client_name',
    'i.client_reg_code',
    'i.client_vat_code',
    'i.invoice_date',
    // As GET /invoices answers it: the spec lists due_date among the date-time fields.
    sql<string>`to_char(i.due_date, 'YYYY-MM-DD"T00:00:00.000Z"')`.as('due_date'),
    'i.currency',
    'i.net_sum',
    'i.tax_sum',
    'i.total_sum',
    'i.paid_sum',
    'i.reference_number',
    invoiceRowCount().as('row_count'),
    'i.exported_at',
    'i.sent_at',
    'i.paid_at',
    'i.created_at',
    'i.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<IntegrationInvoiceListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('i.status', 'in', statuses as Status[]);
  if (filters.client_id !== undefined) q = q.where('i.client_id', '=', filters.client_id);
  if (filters.invoice_date_from !== undefined) q = q.where('i.invoice_date', '>=', filters.invoice_date_from);
  if (filters.invoice_date_to !== undefined) q = q.where('i.invoice_date', '<=', filters.invoice_date_to);
  return q;
}

type Row = Omit<IntegrationInvoiceRecord, 'net_sum' | 'tax_sum' | 'total_sum' | 'paid_sum'> & {
  net_sum: string;
  tax_sum: string;
  total_sum: string;
  paid_sum: string;
};

const toRecord = (row: Row): IntegrationInvoiceRecord => ({
  ...row,
  net_sum: moneyOut(row.net_sum)!,
  tax_sum: moneyOut(row.tax_sum)!,
  total_sum: moneyOut(row.total_sum)!,
  paid_sum: moneyOut(row.paid_sum)!,
});

export async function listReadyInvoices(ctx: Ctx, params: IntegrationInvoiceListParams) {
  const page = await listPage<Row, IntegrationInvoiceListParams>(ctx, {
    listId: 'integration_invoices',
    params,
    options: INTEGRATION_INVOICE_LIST_OPTIONS,
    idColumn: 'i.id',
    project,
    base: (filters) => applyFilters(notExportedInvoices(ctx), filters),
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

/**
 * One kind of reference data an accounting system keeps in step, as its owner counts it: every tax and seller
 * (old invoices name inactive and archived ones too), live products, live clients that are not template rows.
 */
const SUMMARIES: Record<SyncEntity, (ctx: Ctx, cap: number) => Promise<EntitySummary>> = {
  taxes: taxesForSync,
  invoice_sellers: sellersForSync,
  products: productsForSync,
  clients: clientsForSync,
};

/** A count and the first ids (capped, so one summary stays small whatever the company's size). */
export const summarize = (ctx: Ctx, entity: SyncEntity): Promise<EntitySummary> =>
  SUMMARIES[entity](ctx, SUMMARY_ID_CAP);
