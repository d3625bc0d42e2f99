import { sql, type RawBuilder } from 'kysely';
import { tenant } from '../../platform/tenant-table.ts';
import type { Ctx } from '../../platform/context.ts';
import { rowPriceInEffectSql, rowPriceStartsSql } from '../contracts/index.ts';
import { priceInEffectSql, priceStartsSql } from '../products/index.ts';

/**
 * What is billable and not yet billed, in set-based SQL shared by the engine and the missed-billing report, so
 * the two can never disagree (docs/decisions/0023). The rules:
 * - a contract bills while it is `active`, between its date_from and date_until (local dates);
 * - an **hourly row** is a contract row whose product has bill_by = 'hour'; every other row is a **periodic fee**;
 * - a closed time entry of a client's live task, dated by its start in the company time zone, goes to the first
 *   hourly row (lowest contract id, then row id) whose contract covers that day, whose product's topics include
 *   the task's topic (none listed: any topic) and whose product's billable_filter accepts it (default `billable`:
 *   the entry and its topic both billable; `non_billable`; `all`);
 * - its billed seconds are rounded up to the contract's invoice_time_rounding (minutes), then raised to the row's
 *   invoice_time_min (minutes);
 * - its price is the row's own price effective that day (row prices by active_from), else the row's net_price,
 *   else the product's price effective that day in the contract currency; none: the entry is unpriced.
 */
export interface WorkWindow {
  from: string;
  to: string;
  clientId?: number;
  /** Only these clients (the rollup's rebuild of the clients marked dirty). */
  clients?: readonly number[];
  /** Not these clients (the report leaves out those whose data cannot be computed). */
  excluded?: readonly number[];
}

/**
 * Billable work: the entry is billable and so is its task's topic (no topic: the entry decides). `entry` and
 * `topic` alias time_entries and the task's topics row. The engine bills by it and the reports count by it.
 */
export const billableWork = (entry = 'e', topic = 'tp') =>
  sql<boolean>`(${sql.ref(`${entry}.billable`)} = 1 and coalesce(${sql.ref(`${topic}.billable`)}, 1) = 1)`;

/** A period's first day for a contract's invoice_period (calendar aligned). */
export const periodStart = (day: RawBuilder<unknown>, period: RawBuilder<unknown>) => sql<string>`(case ${period}
  when 'quarter' then date_trunc('quarter', ${day})
  when 'half_year' then date_trunc('year', ${day}) + case when extract(month from ${day}) > 6
    then interval '6 months' else interval '0 months' end
  when 'year' then date_trunc('year', ${day})
  else date_trunc('month', ${day}) end)::date`;

export const periodLength = (period: RawBuilder<unknown>) => sql`(case ${period}
  when 'quarter' then interval '3 months' when 'half_year' then interval '6 months'
  when 'year' then interval '1 year' else interval '1 month' end)`;

/**
 * The contracts in force in the window (k), all their rows with what the product says (cr), the hourly ones
 * ranked per client (h: rank 1 is tried first) and the clients with more than one hourly row (hm), for whom
 * a later row only takes what no earlier row matches.
 */
function contractsSql(ctx: Ctx, w: WorkWindow) {
  const client = w.clientId ?? null;
  const clients = w.clients === undefined ? null : [...w.clients];
  // tenant: deliberate SQL — every table below is filtered by its tenant(ctx, alias) predicate.
  return sql`k as (
      select k.id as contract_id, k.client_id, k.invoice_period, k.invoice_day,
             coalesce(k.date_from, '-infinity'::date) as kfrom, coalesce(k.date_until, 'infinity'::date) as kuntil,
             coalesce(nullif(k.settings->>'currency', ''), ${ctx.company.currency}::text) as currency,
             coalesce((k.settings->>'invoice_time_rounding')::int, 0) as rounding,
             coalesce((k.settings->>'is_summarized')::boolean, false) as summarized,
             nullif(k.settings->>'summarized_description', '') as summarized_description
        from contracts k
       where ${tenant(ctx, 'k')} and k.type = 'contract' and k.status = 'active' and k.deleted_at is null
         and (${client}::int is null or k.client_id = ${client}::int) and k.client_id is not null
         and (${clients}::int[] is null or k.client_id = any(${clients}::int[]))
         and k.client_id <> all(${[...(w.excluded ?? [])]}::int[])
         and (k.date_from is null or k.date_from <= ${w.to}::date)
         and (k.date_until is null or k.date_until >= ${w.from}::date)),
    cr as materialized (
      select r.id as row_id, k.*, r.product_id, r.quantity, r.discount_rate, r.net_price as row_net_price,
             coalesce(r.invoice_time_min, 0) as min_minutes,
             p.bill_by is not distinct from 'hour' as hourly, coalesce(p.billable_filter, 'billable') as filter,
             case when p.topics is null or jsonb_array_length(p.topics) = 0 then null else p.topics end as topics
        from k join contract_rows r on ${tenant(ctx, 'r')} and r.contract_id = k.contract_id
        left join products p on ${tenant(ctx, 'p')} and p.id = r.product_id),
    h as materialized (
      select cr.*, row_number() over (partition by cr.client_id order by cr.contract_id, cr.row_id) as rn
        from cr where cr.hourly),
    hm as materialized (
      select * from h where h.client_id in (select client_id from h group by client_id having count(*) > 1))`;
}

/**
 * The price over time of the rows in `rows` (h: the hourly rows; fr: the fees): intervals [from_day, until_day)
 * with the price that holds in each (few per row). A row with its own net_price never falls back to the product,
 * so the product's dates do not split it; the product's price is looked up once per product, currency and date,
 * not once per contract row (a company's thousands of contracts usually share a few products).
 */
function pricesSql(ctx: Ctx, rows: 'h' | 'fr') {
  const rowPrice = rowPriceInEffectSql(ctx, sql.ref('hb.row_id'), sql`greatest(hb.day, '0001-01-01'::date)`);
  const productPrice = priceInEffectSql(ctx, {
    product: sql.ref('d.product_id'),
    day: sql`greatest(d.day, '0001-01-01'::date)`,
    currency: sql.ref('d.currency'),
    companyCurrency: ctx.company.currency,
  });
  return sql`hb as (
      select distinct c.row_id, c.product_id, c.currency, c.row_net_price, b.day
        from ${sql.table(rows)} c cross join lateral (
          select '-infinity'::date as day
          union all ${rowPriceStartsSql(ctx, sql.ref('c.row_id'))}
          union all select s.active_from from (${priceStartsSql(ctx, sql.ref('c.product_id'))}) s
           where c.row_net_price is null) b),
    pd as (
      select d.product_id, d.currency, d.day, ${productPrice} as price
        from (select distinct hb.product_id, hb.currency, hb.day from hb
               where hb.row_net_price is null and hb.product_id is not null) d),
    iv as materialized (
      select hb.row_id, hb.day as from_day,
             coalesce(lead(hb.day) over (partition by hb.row_id order by hb.day), 'infinity'::date) as until_day,
             coalesce(${rowPrice}, hb.row_net_price, pd.price) as price
        from hb left join pd on pd.product_id = hb.product_id and pd.currency = hb.currency and pd.day = hb.day)`;
}

/** Whether hourly row r takes entry e (its contract covers the day, the topic and the billable filter agree). */
const takes = (r: string) =>
  sql.raw(`e.day between ${r}.kfrom and ${r}.kuntil
         and (${r}.topics is null or ${r}.topics @> to_jsonb(e.topic_id))
         and (${r}.filter = 'all' or (${r}.filter = 'billable') = e.billable)`);

/** With clients named (the engine, the rollup), only the entries of their tasks are read (by the task index). */
function clientEntries(ctx: Ctx, w: WorkWindow) {
  if (w.clients !== undefined)
    return sql`and e.task_id in (select t.id from tasks t where ${tenant(ctx, 't')}
                                   and t.client_id = any(${[...w.clients]}::int[]))`;
  if (w.clientId === undefined) return sql``;
  return sql`and e.task_id in (select t.id from tasks t where ${tenant(ctx, 't')}
                                 and t.client_id = ${w.clientId}::int)`;
}

/**
 * Unbilled closed entries of contracted clients in the window, matched to their hourly row and priced. Every
 * per-entry value (the local day, the seconds) is computed once, in ew, and what the later joins compare is plain
 * columns: the report reads hundreds of thousands of entries, so each expression repeated per join costs seconds.
 */
export function workSql(ctx: Ctx, w: WorkWindow) {
  const tz = ctx.company.timezone;
  return sql`with ${contractsSql(ctx, w)}, ${pricesSql(ctx, 'h')},
    -- Materialized so the window's entries are read by their start (one index range) before any join.
    ew as materialized (
      select e.id, e.task_id, e.person_id, e."end", e.billable, (e.start at time zone ${tz})::date as day,
             coalesce(e.duration, extract(epoch from e."end" - e.start)::int) as secs
        from time_entries e
       where ${tenant(ctx, 'e')} and e.deleted_at is null and e."end" is not null
         and e.start >= (${w.from}::date::timestamp at time zone ${tz})
         and e.start < ((${w.to}::date + 1)::timestamp at time zone ${tz}) ${clientEntries(ctx, w)}
         and not exists (select 1 from invoice_row_entries l
                          where ${tenant(ctx, 'l')} and l.time_entry_id = e.id)),
    e as (
      select e.id, e.task_id, t.client_id, t.topic_id, t.title, e.person_id, e."end", e.secs, e.day,
             ${billableWork('e', 'tp')} as billable
        from ew e
        join tasks t on ${tenant(ctx, 't')} and t.id = e.task_id and t.deleted_at is null
        left join topics tp on tp.company_id = t.company_id and tp.id = t.topic_id),
    m as (
      select e.*, h.row_id, h.contract_id, h.invoice_period, h.invoice_day,
             h.summarized, h.currency, h.discount_rate,
             greatest(case when h.rounding > 0 then ceil(e.secs / (h.rounding * 60.0)) * h.rounding * 60
                           else e.secs end, h.min_minutes * 60)::bigint as billed_secs
        from e join h on h.client_id = e.client_id and ${takes('h')}
       where not exists (select 1 from hm where hm.client_id = e.client_id and hm.rn < h.rn and ${takes('hm')})),
    w as (
      select m.*, iv.price
        from m left join iv on iv.row_id = m.row_id and m.day >= iv.from_day and m.day < iv.until_day)`;
}

/** Periodic fees: every non-hourly row of a contract in force, for each of its periods overlapping the window. */
export function feesSql(ctx: Ctx, w: WorkWindow) {
  return sql`with ${contractsSql(ctx, w)},
    fr as (select * from cr where not cr.hourly), ${pricesSql(ctx, 'fr')},
    f as (
      select cr.*, p_.from_day as period_from, iv.price,
             ((p_.from_day + ${periodLength(sql.ref('cr.invoice_period'))})::date - 1) as period_until
        from cr cross join lateral (select generate_series(
            ${periodStart(sql`greatest(cr.kfrom, ${w.from}::date)`, sql.ref('cr.invoice_period'))}::timestamp,
            least(cr.kuntil, ${w.to}::date)::timestamp, ${periodLength(sql.ref('cr.invoice_period'))})::date as from_day) p_
        left join iv on iv.row_id = cr.row_id and p_.from_day >= iv.from_day and p_.from_day < iv.until_day
       where not cr.hourly
         and not exists (select 1 from invoice_row_fees b where ${tenant(ctx, 'b')}
                          and b.contract_row_id = cr.row_id and b.period_from = p_.from_day))`;
}

/** A fee's pro-rata quantity: the row quantity × days of the period the contract covers ÷ the period's days. */
export const feeQuantitySql = sql`round(f.quantity * (least(f.kuntil, f.period_until) - greatest(f.kfrom, f.period_from) + 1)
  / (f.period_until - f.period_from + 1)::numeric, 4)`;

/** A fee's price on its period's first day (joined from the rows' price timeline). */
export const feePriceSql = sql`f.price`;
