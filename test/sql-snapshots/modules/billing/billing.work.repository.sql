-- src/modules/billing/billing.work.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- billableWork
(${sql.ref(`${entry}.billable`)} = 1 and coalesce(${sql.ref(`${topic}.billable`)}, 1) = 1)

-- periodStart
(case ${period}
when 'quarter' then date_trunc('quarter', ${day})
when 'half_year' then date_trunc('year', ${day}) + case when extract(month from ${day}) > 6
  then interval '6 months' else interval '0 months' end
when 'year' then date_trunc('year', ${day})
else date_trunc('month', ${day}) end)::date

-- periodLength
(case ${period}
when 'quarter' then interval '3 months' when 'half_year' then interval '6 months'
when 'year' then interval '1 year' else interval '1 month' end)

-- contractsSql
k as (
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
  select * from h where h.client_id in (select client_id from h group by client_id having count(*) > 1))

-- pricesSql
greatest(hb.day, '0001-01-01'::date)

-- pricesSql
greatest(d.day, '0001-01-01'::date)

-- pricesSql
hb as (
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
    from hb left join pd on pd.product_id = hb.product_id and pd.currency = hb.currency and pd.day = hb.day)

-- takes
e.day between ${r}.kfrom and ${r}.kuntil
and (${r}.topics is null or ${r}.topics @> to_jsonb(e.topic_id))
and (${r}.filter = 'all' or (${r}.filter = 'billable') = e.billable)

-- clientEntries
and e.task_id in (select t.id from tasks t where ${tenant(ctx, 't')}
and t.client_id = any(${[...w.clients]}::int[]))

-- clientEntries


-- clientEntries
and e.task_id in (select t.id from tasks t where ${tenant(ctx, 't')}
and t.client_id = ${w.clientId}::int)

-- workSql
with ${contractsSql(ctx, w)}, ${pricesSql(ctx, 'h')},
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
    from m left join iv on iv.row_id = m.row_id and m.day >= iv.from_day and m.day < iv.until_day)

-- feesSql
with ${contractsSql(ctx, w)},
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
                      and b.contract_row_id = cr.row_id and b.period_from = p_.from_day))

-- feesSql
greatest(cr.kfrom, ${w.from}::date)

-- feeQuantitySql
round(f.quantity * (least(f.kuntil, f.period_until) - greatest(f.kfrom, f.period_from) + 1)
/ (f.period_until - f.period_from + 1)::numeric, 4)

-- feePriceSql
f.price
