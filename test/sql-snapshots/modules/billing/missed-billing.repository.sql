-- src/modules/billing/missed-billing.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- feePartsSql
${feesSql(ctx, w)},
fp as (
  select f.*, ${feeQuantitySql} as qty
    from f)
select fp.contract_id, fp.client_id, fp.invoice_period, fp.invoice_day, fp.currency, fp.period_from,
       sum(case when fp.price is null then 1 else 0 end)::int as unpriced,
       coalesce(sum(round(fp.qty * fp.price * (1 - r.discount_rate / 100), 2)), 0) as value
  from fp join contract_rows r on ${tenant(ctx, 'r')} and r.id = fp.row_id
 group by 1, 2, 3, 4, 5, 6

-- itemsSql
with wk as (${workPartsSql(ctx, w)}), fe as (${feePartsSql(ctx, w)}),
it as (
  select coalesce(wk.client_id, fe.client_id) as client_id, coalesce(wk.contract_id, fe.contract_id) as contract_id,
         coalesce(wk.invoice_period, fe.invoice_period) as invoice_period,
         coalesce(wk.invoice_day, fe.invoice_day) as invoice_day, coalesce(wk.currency, fe.currency) as currency,
         coalesce(wk.period_from, fe.period_from) as period_from, coalesce(wk.secs, 0) as secs,
         coalesce(wk.entries, 0) as entries, coalesce(wk.unpriced, 0) + coalesce(fe.unpriced, 0) as unpriced,
         coalesce(wk.value, 0) as recoverable, coalesce(fe.value, 0) as fees
    from wk full join fe on fe.contract_id = wk.contract_id and fe.period_from = wk.period_from)
select * from it where it.entries > 0 or it.fees <> 0 or it.unpriced > 0

-- missedItems
select it.client_id, it.contract_id, it.invoice_period, it.invoice_day,
  it.currency, it.period_from::text as period_from, round(it.secs / 3600.0, 2)::text as hours, it.entries,
  it.unpriced, it.recoverable::text as recoverable, it.fees::text as fees
from (${itemsSql(ctx, w)}) it

-- missedTotalsByPeriod
select it.invoice_period, it.invoice_day,
  it.period_from::text as period_from, sum(it.recoverable)::text as recoverable, sum(it.fees)::text as fees,
  (count(*) filter (where it.unpriced > 0))::int as unpriced_items
from (${itemsSql(ctx, w)}) it group by 1, 2, 3
