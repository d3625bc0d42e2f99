import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { agreementDays, BILLABLE, costCtes, entriesFrom, entryDay, invoicesWhere, SECS } from './reports.sql.ts';
import type { ReportWindow } from './reports.window.ts';
import { countedStatus, signedAmount } from '../invoices/index.ts';
import { workClientOf } from '../billing/index.ts';
import { tenant } from '../../platform/tenant-table.ts';

// tenant: deliberate SQL — every query below filters each table by the caller's company_id (see reports.sql.ts).

export type GroupBy = 'person' | 'client' | 'project' | 'topic';
export type Interval = 'month' | 'quarter' | 'year';

/** What time is grouped by: a column of the entry or of its task; invoiced work stays with its invoice's client. */
export function entryKey(ctx: Ctx, groupBy: GroupBy): RawBuilder<number | null> {
  if (groupBy === 'person') return sql`e.person_id`;
  if (groupBy === 'client') return workClientOf('e', 't', ctx.companyId);
  return groupBy === 'project' ? sql`t.project_id` : sql`t.topic_id`;
}

export interface TimeGroupRow {
  id: number | null;
  secs: string;
  billable_secs: string;
}

/** Time per group of the window: total and billable seconds (exact). */
export async function timeGroups(ctx: Ctx, w: ReportWindow, groupBy: GroupBy): Promise<TimeGroupRow[]> {
  const result = await sql<TimeGroupRow>`select ${entryKey(ctx, groupBy)} as id, sum(${SECS})::text as secs,
        sum(case when ${BILLABLE} then ${SECS} else 0 end)::text as billable_secs
      ${entriesFrom(ctx, w)}
     group by 1`.execute(ctx.db);
  return result.rows;
}

export interface KeyedValue {
  k: string | number | null;
  v: string;
}

/** Seconds worked per key (a bucket's first day, a person, a client). */
export async function hoursBy(ctx: Ctx, w: ReportWindow, key: RawBuilder<unknown>): Promise<KeyedValue[]> {
  const result = await sql<KeyedValue>`select ${key} as k, sum(${SECS})::text as v
      ${entriesFrom(ctx, w)} group by 1`.execute(ctx.db);
  return result.rows;
}

/** The first day of the interval holding a date expression, as text keys the service matches buckets with. */
export const bucketOf = (interval: Interval, day: RawBuilder<unknown>) =>
  sql<string>`date_trunc(${interval}, ${day})::date::text`;

/** The bucket of an entry: its local day's interval. */
export const entryBucket = (w: ReportWindow, interval: Interval) => bucketOf(interval, entryDay(w));

/** Net revenue (finalized invoices, company currency) per bucket of invoice_date. */
export async function revenueByBucket(ctx: Ctx, w: ReportWindow, interval: Interval): Promise<KeyedValue[]> {
  const result =
    await sql<KeyedValue>`select ${bucketOf(interval, sql`i.invoice_date`)} as k, sum(${signedAmount('i', sql`i.net_sum`)})::text as v
      from invoices i where ${invoicesWhere(ctx, w)} and ${countedStatus('i')}
     group by 1`.execute(ctx.db);
  return result.rows;
}

/** Net revenue per client (invoice header) or per person / product (invoice rows: rows add up to the net_sum). */
export async function revenueBy(ctx: Ctx, w: ReportWindow, by: 'client' | 'person' | 'product'): Promise<KeyedValue[]> {
  const finalized = countedStatus('i');
  const result =
    by === 'client'
      ? await sql<KeyedValue>`select i.client_id as k, sum(${signedAmount('i', sql`i.net_sum`)})::text as v
          from invoices i where ${invoicesWhere(ctx, w)} and ${finalized} group by 1`.execute(ctx.db)
      : await sql<KeyedValue>`select ${by === 'person' ? sql`r.person_id` : sql`r.product_id`} as k,
               sum(${signedAmount('i', sql`r.net_sum`)})::text as v
          from invoices i join invoice_rows r on r.company_id = i.company_id and r.invoice_id = i.id
         where ${invoicesWhere(ctx, w)} and ${finalized} group by 1`.execute(ctx.db);
  return result.rows;
}

/** The cost of the window per key: a bucket's first day or a person (see costCtes). */
export async function costBy(
  ctx: Ctx,
  w: ReportWindow,
  key: (alias: string) => RawBuilder<unknown>,
): Promise<KeyedValue[]> {
  const result = await sql<KeyedValue>`with pd as (
      select e.person_id, ${entryDay(w)} as day, sum(${SECS}) as secs ${entriesFrom(ctx, w)} group by 1, 2),
    ${agreementDays(ctx, w)},
    ${costCtes(key)}
    select k, cost::text as v from cost`.execute(ctx.db);
  return result.rows;
}

export type NamedTable = 'people' | 'clients' | 'projects' | 'topics' | 'products';

/** Display names by id (deleted rows keep their name: history reads as it was). */
export async function namesOf(ctx: Ctx, table: NamedTable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const name = table === 'people' ? sql`concat_ws(' ', x.name, x.surname)` : sql`x.name`;
  const result = await sql<{ id: number; name: string }>`select x.id, ${name} as name from ${sql.table(table)} x
     where ${tenant(ctx, 'x')} and x.id = any(${[...ids]}::int[])`.execute(ctx.db);
  return new Map(result.rows.map((r) => [r.id, r.name]));
}
