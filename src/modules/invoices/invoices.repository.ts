import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import {
  scoped,
  tenantTable,
  type BaseQuery,
  type NewRow,
  type RowChanges,
  type RowUpdate,
} from '../../platform/tenant-table.ts';
import {
  INVOICE_LIST_OPTIONS,
  ROW_LIST_OPTIONS,
  ROWS_INLINE_CAP,
  type InvoiceListParams,
  type InvoiceRecord,
  type InvoiceRowListParams,
  type InvoiceRowRecord,
  type InvoiceStatus,
  type InvoiceType,
} from './invoices.schemas.ts';
import { firstRecord } from '../../platform/sql.ts';

export const invoices = tenantTable('invoices', { alias: 'i' });
export const invoiceRows = tenantTable('invoice_rows', { alias: 'r' });

/** What the writes need of a locked invoice. */
export interface LockedInvoice {
  id: number;
  updated_at: string;
  status: InvoiceStatus;
  type: InvoiceType;
  client_id: number;
  contract_id: number | null;
  seller_id: number | null;
  currency: string;
  invoice_date: string;
  due_date: string;
  total_sum: string;
  paid_sum: string;
  sent_at: string | null;
  paid_at: string | null;
}
export type InvoiceHeader = Omit<InvoiceRecord, 'rows' | 'rows_truncated'>;

/*
 * The record JSON is built in SQL, in one round trip: row_to_json / json_agg of a select list (faster than
 * json_build_object and compact). numeric becomes a JSON number exactly; `$` stands for the outer alias.
 */
type Field = string | [name: string, expression: string];
/** numeric → JSON number without trailing zeros (120.00 → 120, 1.5000 → 1.5), exactly as stored. */
const numbers = (columns: readonly string[]): Field[] => columns.map((c) => [c, `trim_scale($.${c})`]);
const iso = (column: string): Field => [
  column,
  `to_char($.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
];
const selectList = (fields: readonly Field[], alias: string) =>
  fields
    .map((f) => (typeof f === 'string' ? `$.${f}` : `${f[1]} as ${f[0]}`))
    .join(', ')
    .replaceAll('$.', `${alias}.`);

const ROW_FIELDS: Field[] = [
  ...['id', 'invoice_id', 'credited_row_id', 'description'],
  ...numbers(['quantity']),
  'unit',
  ...numbers(['net_price', 'net_sum', 'discount_rate']),
  'person_id',
  iso('completed_at'),
  ...['period_start', 'period_end'],
  ...['tax_id', ...numbers(['tax_rate']), 'tax_name', ...numbers(['tax_sum'])],
  ...['product_id', 'article_id', 'resource_id', 'billing_project_id'],
  ...['ext_variable', 'original_client_id'],
  iso('created_at'),
  iso('updated_at'),
];

const HEADER_FIELDS: Field[] = [
  ...['id', 'type', 'credited_invoice_id', 'client_id', 'contract_id', 'seller_id', 'status', 'invoice_number'],
  'invoice_date',
  ['due_date', `to_char($.due_date, 'YYYY-MM-DD"T00:00:00.000Z"')`],
  ...numbers(['net_sum', 'tax_sum', 'total_sum', 'paid_sum']),
  'currency',
  ...['client_name', 'client_reg_code', 'client_vat_code', 'client_contact'],
  ...['seller_name', 'seller_reg_code', 'seller_vat_code', 'seller_address', 'seller_contact'],
  ...['locale_code', 'comments', 'reference_number', 'period_label'],
  ...['exported_at', 'sent_at', 'paid_at'].map(iso),
  'send_error',
  ...['send_failed_at', 'created_at', 'updated_at'].map(iso),
];

/** The oldest rows up to the cap, and whether there are more. */
const INLINED_ROWS = `(select coalesce(json_agg(x order by x.id), '[]'::json) from (select ${selectList(ROW_FIELDS, 'r')}
  from invoice_rows r where r.company_id = $.company_id and r.invoice_id = $.id order by r.id limit ${ROWS_INLINE_CAP}) x)`;
const TRUNCATED = `exists (select 1 from invoice_rows r where r.company_id = $.company_id and r.invoice_id = $.id
  offset ${ROWS_INLINE_CAP})`;

const recordOf = <T>(fields: readonly Field[], alias: string) =>
  sql.raw(`(select row_to_json(h) from (select ${selectList(fields, alias)}) h)`) as RawBuilder<T>;
const RECORD_FIELDS: Field[] = [...HEADER_FIELDS, ['rows', INLINED_ROWS], ['rows_truncated', TRUNCATED]];
const invoiceJson = (alias: string) => recordOf<InvoiceRecord>(RECORD_FIELDS, alias);
/** The record's SQL text, for the benchmark's floor (b), which must run exactly this. */
export const invoiceRecordSql = (alias: string) =>
  `(select row_to_json(h) from (select ${selectList(RECORD_FIELDS, alias)}) h)`;
const headerJson = (alias: string) => recordOf<InvoiceHeader>(HEADER_FIELDS, alias);
const rowJson = (alias: string) => recordOf<InvoiceRowRecord>(ROW_FIELDS, alias);

type Query = BaseQuery<'invoices', 'i'>;

/**
 * The sort columns ride along for the keyset cursor; `record` is the invoice as JSON text, answered as it
 * comes from PostgreSQL (no parse and re-serialization of up to 200 rows per invoice).
 */
function project(query: Query) {
  return query.select([
    'i.id',
    'i.invoice_date',
    'i.due_date',
    'i.created_at',
    'i.updated_at',
    sql<string>`${invoiceJson('i')}::text`.as('record'),
  ]);
}

function applyFilters(query: Query, filters: ListFilters<InvoiceListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('i.status', 'in', statuses as InvoiceStatus[]);
  if (filters.client_id !== undefined) q = q.where('i.client_id', '=', filters.client_id);
  if (filters.type !== undefined) q = q.where('i.type', '=', filters.type);
  if (filters.invoice_date_from !== undefined) q = q.where('i.invoice_date', '>=', filters.invoice_date_from);
  if (filters.invoice_date_to !== undefined) q = q.where('i.invoice_date', '<=', filters.invoice_date_to);
  return q;
}

/** A page of invoices, each as its JSON text. */
export async function listInvoiceTexts(ctx: Ctx, params: InvoiceListParams) {
  const page = await listPage<{ record: string }, InvoiceListParams>(ctx, {
    listId: 'invoices',
    params,
    options: INVOICE_LIST_OPTIONS,
    idColumn: 'i.id',
    project,
    base: (filters) => applyFilters(invoices.base(ctx), filters),
  });
  return { data: page.data.map((row) => row.record), meta: page.meta };
}

/** One invoice as JSON text, with its version for the ETag. */
export async function findInvoiceText(ctx: Ctx, id: number) {
  return invoices
    .base(ctx)
    .select(['i.updated_at', sql<string>`${invoiceJson('i')}::text`.as('record')])
    .where('i.id', '=', id)
    .executeTakeFirst();
}

export async function findInvoice(ctx: Ctx, id: number): Promise<InvoiceRecord | undefined> {
  const row = await invoices.base(ctx).select(invoiceJson('i').as('record')).where('i.id', '=', id).executeTakeFirst();
  return row?.record;
}

/** The invoice without its rows: what its events carry. */
export async function findInvoiceHeader(ctx: Ctx, id: number): Promise<InvoiceHeader | undefined> {
  const row = await invoices.base(ctx).select(headerJson('i').as('record')).where('i.id', '=', id).executeTakeFirst();
  return row?.record;
}

/** Locks the invoice for the rest of the transaction: row writes, finalization and payments serialize on it. */
export async function lockInvoice(ctx: Ctx, id: number): Promise<LockedInvoice | undefined> {
  return firstRecord<LockedInvoice>(
    invoices
      .base(ctx)
      .where('i.id', '=', id)
      .select([
        'i.id',
        'i.updated_at',
        'i.status',
        'i.type',
        'i.client_id',
        'i.contract_id',
        'i.seller_id',
        'i.currency',
        'i.invoice_date',
        'i.due_date',
        'i.total_sum',
        'i.paid_sum',
        'i.sent_at',
        'i.paid_at',
      ])
      .forUpdate(),
  );
}

export const insertInvoice = (ctx: Ctx, values: NewRow<'invoices'>) => invoices.insert(ctx, values);
/** Changes the header and moves updated_at on (a new ETag). */
export const updateInvoice = (ctx: Ctx, id: number, values: RowUpdate<'invoices'>) => invoices.update(ctx, id, values);

export async function listRows(ctx: Ctx, invoiceId: number, params: InvoiceRowListParams) {
  const page = await listPage<{ id: number; record: InvoiceRowRecord }, InvoiceRowListParams>(ctx, {
    listId: 'invoice_rows',
    params,
    options: ROW_LIST_OPTIONS,
    idColumn: 'r.id',
    project: (query: BaseQuery<'invoice_rows', 'r'>) => query.select(['r.id', rowJson('r').as('record')]),
    base: () => invoiceRows.base(ctx).where('r.invoice_id', '=', invoiceId),
  });
  return { data: page.data.map((row) => row.record), meta: page.meta };
}

export async function findRow(ctx: Ctx, invoiceId: number, rowId: number): Promise<InvoiceRowRecord | undefined> {
  const row = await invoiceRows
    .base(ctx)
    .select(rowJson('r').as('record'))
    .where('r.invoice_id', '=', invoiceId)
    .where('r.id', '=', rowId)
    .executeTakeFirst();
  return row?.record;
}

/** The stored row (amounts as exact numeric text), locked. */
export async function lockRow(ctx: Ctx, invoiceId: number, rowId: number) {
  return invoiceRows
    .base(ctx)
    .selectAll('r')
    .where('r.invoice_id', '=', invoiceId)
    .where('r.id', '=', rowId)
    .forUpdate()
    .executeTakeFirst();
}
export type StoredRow = NonNullable<Awaited<ReturnType<typeof lockRow>>>;

export async function insertRows(ctx: Ctx, rows: ReadonlyArray<NewRow<'invoice_rows'>>): Promise<number[]> {
  if (rows.length === 0) return [];
  const ids = await scoped.insert(ctx, 'invoice_rows', rows).returning('id').execute();
  return ids.map((r) => r.id);
}

/**
 * Unlinks what the billing engine billed on this invoice (time entries and contract-row periods), or only on
 * some of its rows (those a partial credit note credited in full).
 */
export async function releaseBilled(ctx: Ctx, invoiceId: number, rowIds?: readonly number[]): Promise<void> {
  if (rowIds?.length === 0) return;
  for (const table of ['invoice_row_entries', 'invoice_row_fees'] as const) {
    let query = scoped.delete(ctx, table).where('invoice_id', '=', invoiceId);
    if (rowIds) query = query.where('invoice_row_id', 'in', [...rowIds]);
    await query.execute();
  }
}

/** The invoice's rows of these ids (others are simply absent). */
export function rowsByIds(ctx: Ctx, invoiceId: number, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return scoped
    .select(ctx, 'invoice_rows', 'r')
    .selectAll('r')
    .where('r.invoice_id', '=', invoiceId)
    .where('r.id', 'in', [...new Set(ids)])
    .execute();
}

/** The net each row of the invoice has been credited so far, by its credit notes' rows. */
export async function creditedByRow(ctx: Ctx, invoiceId: number): Promise<Map<number, string>> {
  const rows = await scoped
    .select(ctx, 'invoice_rows', 'r')
    .innerJoin('invoices as c', (join) =>
      join.onRef('c.company_id', '=', 'r.company_id').onRef('c.id', '=', 'r.invoice_id'),
    )
    .where('c.credited_invoice_id', '=', invoiceId)
    .where('r.credited_row_id', 'is not', null)
    .select(['r.credited_row_id', sql<string>`sum(r.net_sum)::text`.as('net')])
    .groupBy('r.credited_row_id')
    .execute();
  return new Map(rows.map((row) => [row.credited_row_id!, row.net]));
}

export const updateRow = (ctx: Ctx, id: number, values: RowChanges<'invoice_rows'>) =>
  invoiceRows.update(ctx, id, values);
export const deleteRow = (ctx: Ctx, id: number) => invoiceRows.remove(ctx, id);

/** The exact sums of the invoice's (already rounded) rows, added up in SQL. */
export async function rowTotals(ctx: Ctx, invoiceId: number): Promise<{ net: string; tax: string }> {
  return scoped
    .select(ctx, 'invoice_rows', 'r')
    .where('r.invoice_id', '=', invoiceId)
    .select([
      sql<string>`coalesce(sum(r.net_sum), 0)::text`.as('net'),
      sql<string>`coalesce(sum(r.tax_sum), 0)::text`.as('tax'),
    ])
    .executeTakeFirstOrThrow();
}

export async function rowCount(ctx: Ctx, invoiceId: number): Promise<number> {
  const row = await scoped
    .select(ctx, 'invoice_rows', 'r')
    .where('r.invoice_id', '=', invoiceId)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The next value of a numbering scope. The upsert takes the counter row's lock until the transaction ends,
 * so concurrent finalizations queue here and a rolled-back one gives its number back: gapless, consecutive.
 */
export async function nextNumber(ctx: Ctx, scope: string): Promise<number> {
  const row = await scoped
    .insert(ctx, 'invoice_number_counters', [{ scope, last_value: 1 }])
    .onConflict((oc) =>
      oc.columns(['company_id', 'scope']).doUpdateSet({ last_value: sql`invoice_number_counters.last_value + 1` }),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return Number(row.last_value);
}

export async function numberTaken(ctx: Ctx, invoiceNumber: string): Promise<boolean> {
  const row = await invoices.base(ctx).select('i.id').where('i.invoice_number', '=', invoiceNumber).executeTakeFirst();
  return row !== undefined;
}
