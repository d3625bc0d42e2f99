import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped, companyValue } from '../../platform/tenant-table.ts';
import { feePriceSql, feeQuantitySql, feesSql, workSql, type WorkWindow } from './billing.work.repository.ts';

/** One unbilled time entry, matched to its contract's hourly row (price null: unpriced). */
export interface WorkLine {
  id: number;
  task_id: number;
  title: string;
  person_id: number;
  end: string;
  day: string;
  billed_secs: string;
  contract_id: number;
  row_id: number;
  summarized: boolean;
  price: string | null;
}

/** One periodic fee not yet billed: a non-hourly contract row for one of its periods, pro rata. */
export interface FeeLine {
  contract_id: number;
  row_id: number;
  period_from: string;
  period_until: string;
  quantity: string;
  price: string | null;
}

export interface ContractTerms {
  contract_id: number;
  name: string;
  invoice_period: string;
  invoice_day: number;
  summarized_description: string | null;
}

export interface RowTerms {
  id: number;
  contract_id: number;
  description: string | null;
  unit: string | null;
  discount_rate: string;
  tax_id: number | null;
  product_id: number | null;
  product_name: string | null;
  article_id: number | null;
  resource_id: number | null;
  billing_project_id: number | null;
  ext_variable: string | null;
}

export async function workLines(ctx: Ctx, w: WorkWindow): Promise<WorkLine[]> {
  const result = await sql<WorkLine>`${workSql(ctx, w)}
    select w.id, w.task_id, w.title, w.person_id, to_json(w."end")#>>'{}' as "end", w.day::text as day,
           w.billed_secs::text as billed_secs, w.contract_id, w.row_id, w.summarized, w.price::text as price
      from w order by w.contract_id, w.row_id, w.day, w.id`.execute(ctx.db);
  return result.rows;
}

/** Fees with their pro-rata quantity (days of the period the contract covers) and the price on the first day. */
export async function feeLines(ctx: Ctx, w: WorkWindow): Promise<FeeLine[]> {
  const result = await sql<FeeLine>`${feesSql(ctx, w)}
    select f.contract_id, f.row_id, f.period_from::text as period_from, f.period_until::text as period_until,
           ${feeQuantitySql}::text as quantity, ${feePriceSql}::text as price
      from f order by f.contract_id, f.row_id, f.period_from`.execute(ctx.db);
  return result.rows;
}

/** The client's active contracts (their schedule) that could bill anything. */
export async function activeContracts(ctx: Ctx, clientId: number): Promise<ContractTerms[]> {
  return scoped
    .select(ctx, 'contracts', 'k')
    .where('k.client_id', '=', clientId)
    .where('k.type', '=', 'contract')
    .where('k.status', '=', 'active')
    .where('k.deleted_at', 'is', null)
    .select([
      'k.id as contract_id',
      'k.name',
      'k.invoice_period',
      'k.invoice_day',
      sql<string | null>`nullif(k.settings->>'summarized_description', '')`.as('summarized_description'),
    ])
    .orderBy('k.id')
    .execute();
}

/** What the invoice rows copy from the contract rows (amounts as exact text). */
export async function rowTerms(ctx: Ctx, contractIds: readonly number[]): Promise<Map<number, RowTerms>> {
  if (contractIds.length === 0) return new Map();
  const rows = await scoped
    .select(ctx, 'contract_rows', 'r')
    .leftJoin('products as p', (j) => j.onRef('p.company_id', '=', 'r.company_id').onRef('p.id', '=', 'r.product_id'))
    .where('r.contract_id', 'in', [...contractIds])
    .select([
      'r.id',
      'r.contract_id',
      'r.description',
      sql<string | null>`coalesce(r.unit, p.unit)`.as('unit'),
      sql<string>`r.discount_rate::text`.as('discount_rate'),
      sql<number | null>`coalesce(r.tax_id, p.tax_id)`.as('tax_id'),
      'r.product_id',
      'p.name as product_name',
      'r.article_id',
      'r.resource_id',
      'r.billing_project_id',
      'r.ext_variable',
    ])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Links what an invoice row bills, so the same entry or period is never billed again. */
export async function linkBilled(
  ctx: Ctx,
  invoiceId: number,
  entries: ReadonlyArray<{ rowId: number; entryIds: readonly number[] }>,
  fees: ReadonlyArray<{ rowId: number; contractRowId: number; from: string; until: string }>,
): Promise<void> {
  const entryIds = entries.flatMap((e) => e.entryIds);
  const rowIds = entries.flatMap((e) => e.entryIds.map(() => e.rowId));
  // One statement with two array parameters, however many entries: a row of parameters per entry (15,000 for a
  // big client) costs more to send, parse and plan than the insert itself.
  // tenant: deliberate SQL — the company comes from ctx, never from the arrays.
  if (entryIds.length > 0)
    await sql`insert into invoice_row_entries (company_id, time_entry_id, invoice_row_id, invoice_id)
      select ${companyValue(ctx)}, x.entry_id, x.row_id, ${invoiceId}::int
        from unnest(${entryIds}::int[], ${rowIds}::int[]) as x(entry_id, row_id)`.execute(ctx.db);
  if (fees.length > 0)
    await scoped
      .insert(
        ctx,
        'invoice_row_fees',
        fees.map((f) => ({
          contract_row_id: f.contractRowId,
          period_from: f.from,
          period_until: f.until,
          invoice_row_id: f.rowId,
          invoice_id: invoiceId,
        })),
      )
      .execute();
}
