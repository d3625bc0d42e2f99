import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { rowVisible } from '../../platform/visibility.ts';
import type { ReportWindow } from './reports.window.ts';
import { billableWork } from '../billing/index.ts';

/**
 * The SQL pieces every report shares, so "an hour", "billable", "the day of an entry" and "the cost of a day" mean
 * the same in the KPI summary, the time summary and the BI shapes (docs/decisions/0026).
 * tenant: deliberate SQL — every table below is filtered by company_id = ctx.companyId by hand.
 */

/** Seconds worked: the entry's (net) duration, else end − start. */
export const SECS = sql<number>`coalesce(e.duration, extract(epoch from e."end" - e.start)::bigint)`;

/** Billable work as the billing engine bills it (the rule is billing's). */
export const BILLABLE = billableWork('e', 'tp');

/** The local day of an entry: its start in the company time zone (an entry past midnight stays on its first day). */
export const entryDay = (w: ReportWindow) => sql<string>`(e.start at time zone ${w.timezone})::date`;

/**
 * FROM/WHERE of the entries a report counts: closed (running entries have no length yet), not deleted, starting on
 * a local day of the window, visible to the key. A deleted task's time still counts: the work was done and paid for.
 * The start range is a plain range on the (company_id, start) index.
 */
export function entriesFrom(ctx: Ctx, w: ReportWindow): RawBuilder<unknown> {
  return sql`from time_entries e
      join tasks t on t.company_id = e.company_id and t.id = e.task_id
      left join topics tp on tp.company_id = t.company_id and tp.id = t.topic_id
     where e.company_id = ${ctx.companyId} and e.deleted_at is null and e."end" is not null
       and e.start >= (${w.from}::date::timestamp at time zone ${w.timezone})
       and e.start < ((${w.to}::date + 1)::timestamp at time zone ${w.timezone})
       and ${rowVisible(ctx, 'time_entries', 'e')}`;
}

/**
 * CTE `ag`: the agreement in force for each person on each day of the window. Overlapping agreements are allowed
 * (AGREEMENT_OVERLAP is only a warning): the one that started last wins, then the higher id. At most
 * persons × 366 rows, whatever the number of time entries.
 */
export function agreementDays(ctx: Ctx, w: ReportWindow): RawBuilder<unknown> {
  return sql`ag as (
      select distinct on (a.person_id, d.day) a.person_id, d.day::date as day, a.cost_type, a.cost_rate
        from agreements a
       cross join lateral generate_series(greatest(a.date_from, ${w.from}::date)::timestamp,
             least(coalesce(a.date_until, ${w.to}::date), ${w.to}::date)::timestamp, interval '1 day') d(day)
       where a.company_id = ${ctx.companyId} and a.date_from <= ${w.to}::date
         and (a.date_until is null or a.date_until >= ${w.from}::date)
       order by a.person_id, d.day, a.date_from desc, a.id desc)`;
}

/**
 * CTEs `hc` and `mc` over `pd` (person_id, day, secs: time per person and local day) and `ag`: the cost of the
 * window keyed by `key` (an expression over `person_id` and `day`; null for one total). Hourly agreements cost
 * secs × rate / 3600; monthly ones cost rate × (days in force / days of that month), for the days of the window.
 * One division per group, so the sums stay exact until the caller rounds them.
 */
export function costCtes(key: (alias: string) => RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`hc as (
      select ${key('pd')} as k, sum(pd.secs * ag.cost_rate) / 3600 as cost
        from pd join ag on ag.person_id = pd.person_id and ag.day = pd.day and ag.cost_type = 'hour'
       group by 1),
    mc as (
      select x.k, sum(x.cost_rate * x.days / extract(day from x.month + interval '1 month' - interval '1 day')) as cost
        from (select ${key('ag')} as k, ag.person_id, ag.cost_rate, date_trunc('month', ag.day) as month,
                     count(*) as days
                from ag where ag.cost_type = 'month' group by 1, 2, 3, 4) x
       group by x.k),
    cost as (
      select k, sum(cost) as cost from (select * from hc union all select * from mc) u group by k)`;
}

/**
 * Invoices and credit notes of the window in the company currency (other currencies are reported apart, never
 * converted); sums count them with countedStatus and signedAmount.
 */
export function invoicesWhere(ctx: Ctx, w: ReportWindow, alias = 'i'): RawBuilder<boolean> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`${col('company_id')} = ${ctx.companyId}
    and ${col('invoice_date')} between ${w.from}::date and ${w.to}::date and ${col('currency')} = ${ctx.company.currency}`;
}
