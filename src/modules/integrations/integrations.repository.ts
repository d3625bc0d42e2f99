import type { IntegrationInvoiceListParams } from './integrations.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { moneyOut } from '../../platform/money.ts';
import { nextStamp } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';
import {
  EXPORTABLE_STATUSES,
  INTEGRATION_INVOICE_LIST_OPTIONS,
  SUMMARY_ID_CAP,
  type EntitySummary,
  type IntegrationInvoiceRecord,
  type SyncEntity,
  type SyncSummary,
} from './integrations.schemas.ts';

type Status = (typeof EXPORTABLE_STATUSES)[number];

/** Finalized invoices not exported yet: what an accounting system still has to take. */
const ready = (ctx: Ctx) =>
  scoped
    .select(ctx, 'invoices', 'i')
    .where('i.status', 'in', [...EXPORTABLE_STATUSES])
    .where('i.exported_at', 'is', null);
type Query = ReturnType<typeof ready>;

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
    sql<number>`(select count(*)::int from invoice_rows r where r.company_id = i.company_id and r.invoice_id = i.id)`.as(
      'row_count',
    ),
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
    base: (filters) => applyFilters(ready(ctx), filters),
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

/**
 * The rows of one kind of reference data an accounting system keeps in step: every tax and seller (old
 * invoices name inactive and archived ones too), live products, live clients that are not template rows.
 */
function referenceRows(ctx: Ctx, entity: SyncEntity) {
  switch (entity) {
    case 'taxes':
      return scoped.select(ctx, 'taxes', 'x');
    case 'invoice_sellers':
      return scoped.select(ctx, 'invoice_sellers', 'x');
    case 'products':
      return scoped.select(ctx, 'products', 'x').where('x.deleted_at', 'is', null);
    case 'clients':
      return scoped.select(ctx, 'clients', 'x').where('x.deleted_at', 'is', null).where('x.type', '<>', 'plan');
  }
}

/** A count and the first ids (capped, so one summary stays small whatever the company's size). */
export async function summarize(ctx: Ctx, entity: SyncEntity): Promise<EntitySummary> {
  const rows = await (referenceRows(ctx, entity) as ReturnType<typeof scoped.select<'taxes', 'x'>>)
    .select(['x.id', sql<number>`count(*) over ()`.as('total')])
    .orderBy('x.id')
    .limit(SUMMARY_ID_CAP)
    .execute();
  const count = Number(rows[0]?.total ?? 0);
  return { count, ids: rows.map((r) => r.id), ids_truncated: count > rows.length };
}

/** Stores the summary on a running job and counts what it collected as processed; false when the job moved on. */
export async function recordResult(ctx: Ctx, jobId: number, summary: SyncSummary, total: number): Promise<boolean> {
  const result = await scoped
    .update(ctx, 'jobs')
    .set({
      result: JSON.stringify(summary),
      total_count: total,
      processed_count: total,
      failed_count: 0,
      updated_at: nextStamp(),
    })
    .where('id', '=', jobId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
