-- src/modules/billing/missed-billing.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- missedWorkSql
${workSql(ctx, w)},
tl as (
  select w.row_id, ${periodStart(sql.ref('w.day'), sql.ref('w.invoice_period'))} as period_from,
         case when w.summarized then 0 else w.task_id end as task_key, w.price,
         sum(w.billed_secs) as secs, count(*)::int as n
    from w group by 1, 2, 3, 4)
select h.client_id, h.contract_id, h.invoice_period, h.invoice_day, h.currency,
       tl.period_from::text as period_from, sum(tl.secs)::text as seconds, sum(tl.n)::int as entries,
       sum(case when tl.price is null then tl.n else 0 end)::int as unpriced,
       coalesce(sum(round(round(tl.secs / 3600.0, 4) * tl.price * (1 - h.discount_rate / 100), 2)), 0)::text as value
  from tl join h on h.row_id = tl.row_id
 group by 1, 2, 3, 4, 5, 6

-- missedFees
${feesSql(ctx, w)},
fp as (
  select f.*, ${feeQuantitySql} as qty
    from f)
select fp.client_id, fp.contract_id, fp.invoice_period, fp.invoice_day, fp.currency,
       fp.period_from::text as period_from, '0' as seconds, 0 as entries,
       sum(case when fp.price is null then 1 else 0 end)::int as unpriced,
       coalesce(sum(round(fp.qty * fp.price * (1 - r.discount_rate / 100), 2)), 0)::text as value
  from fp join contract_rows r on ${tenant(ctx, 'r')} and r.id = fp.row_id
 group by 1, 2, 3, 4, 5, 6
