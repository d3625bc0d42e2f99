import { sql } from 'kysely';
import { tenant } from '../../platform/tenant-table.ts';
import type { Ctx } from '../../platform/context.ts';
import { agreementDays, BILLABLE, costCtes, entriesFrom, entryDay, invoicesWhere, SECS } from './reports.sql.ts';
import type { ReportWindow } from './reports.window.ts';
import { companyFeatureSql } from '../companies/index.ts';
import { anyContractPriceSql } from '../contracts/index.ts';
import { countedStatus, invoiceType, signedAmount } from '../invoices/index.ts';
import { anyProductPriceSql } from '../products/index.ts';

// tenant: deliberate SQL — every query below filters each table by the caller's company (see reports.sql.ts).

export interface WorkTotals {
  secs: string;
  billable_secs: string;
  /** Exact, unrounded. */
  cost: string;
}

/**
 * Time and its cost in one pass over the entries: first reduced to one row per person and local day (at most
 * persons × 366 rows, however many entries), then joined to the agreement of that day.
 */
export async function workTotals(ctx: Ctx, w: ReportWindow): Promise<WorkTotals> {
  const result = await sql<WorkTotals>`with pd as (
      select e.person_id, ${entryDay(w)} as day, sum(${SECS}) as secs,
             sum(case when ${BILLABLE} then ${SECS} else 0 end) as billable_secs
        ${entriesFrom(ctx, w)}
       group by 1, 2),
    ${agreementDays(ctx, w)},
    ${costCtes(() => sql`null::int`)}
    select coalesce((select sum(secs) from pd), 0)::text as secs,
           coalesce((select sum(billable_secs) from pd), 0)::text as billable_secs,
           coalesce((select sum(cost) from cost), 0)::text as cost`.execute(ctx.db);
  return result.rows[0]!;
}

export interface InvoiceTotals {
  revenue: string;
  draft_revenue: string;
}

/** Net sums of the window's invoices in the company currency: finalized ones (revenue) and drafts, apart. */
export async function invoiceTotals(ctx: Ctx, w: ReportWindow): Promise<InvoiceTotals> {
  const result = await sql<InvoiceTotals>`select
      coalesce(sum(${signedAmount('i', sql`i.net_sum`)}) filter (where ${countedStatus('i')}), 0)::text as revenue,
      coalesce(sum(i.net_sum) filter (where i.status = 'draft'), 0)::text as draft_revenue
    from invoices i where ${invoicesWhere(ctx, w)}`.execute(ctx.db);
  return result.rows[0]!;
}

export interface OtherCurrency {
  currency: string;
  invoices: number;
}

/** Non-annulled invoices of the window in another currency than the company's: left out of every sum. */
export async function otherCurrencies(ctx: Ctx, w: ReportWindow): Promise<OtherCurrency[]> {
  const result = await sql<OtherCurrency>`select i.currency, count(*)::int as invoices
      from invoices i
     where ${tenant(ctx, 'i')} and i.invoice_date between ${w.from}::date and ${w.to}::date
       and i.currency <> ${ctx.company.currency} and i.status <> 'annulled' and ${invoiceType('i')}
     group by i.currency order by i.currency`.execute(ctx.db);
  return result.rows;
}

export interface BiFacts {
  billing: boolean;
  has_time: boolean;
  has_invoices: boolean;
  has_cost_rate: boolean;
  has_price: boolean;
}

/**
 * The company-wide facts bi_state is read from (not narrowed by a personal key's visibility: the state describes
 * the company's setup). Each is an EXISTS that stops at the first row.
 */
export async function biFacts(ctx: Ctx, w: ReportWindow): Promise<BiFacts> {
  const result = await sql<BiFacts>`select
      ${companyFeatureSql(ctx, 'billing')} as billing,
      exists (select 1 from time_entries e where ${tenant(ctx, 'e')} and e.deleted_at is null and e."end" is not null
               and e.start >= (${w.from}::date::timestamp at time zone ${w.timezone})
               and e.start < ((${w.to}::date + 1)::timestamp at time zone ${w.timezone})) as has_time,
      exists (select 1 from invoices i where ${tenant(ctx, 'i')} and i.status <> 'annulled' and ${invoiceType('i')}
               and i.invoice_date between ${w.from}::date and ${w.to}::date) as has_invoices,
      exists (select 1 from agreements a where ${tenant(ctx, 'a')} and a.cost_rate > 0 and a.date_from <= ${w.to}::date
               and (a.date_until is null or a.date_until >= ${w.from}::date)) as has_cost_rate,
      (${anyProductPriceSql(ctx, sql`${w.to}::date`)} or ${anyContractPriceSql(ctx)}) as has_price`.execute(ctx.db);
  return result.rows[0]!;
}
