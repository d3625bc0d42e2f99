-- src/modules/billing/missed-billing.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- missedFees
${feesSql(ctx, w)},
fp as (
  select f.*, ${feeQuantitySql} as qty
    from f)
select fp.client_id, fp.contract_id, fp.invoice_period, fp.invoice_day, fp.currency,
       fp.period_from::text as period_from, '0' as hours, 0 as entries,
       sum(case when fp.price is null then 1 else 0 end)::int as unpriced,
       coalesce(sum(round(fp.qty * fp.price * (1 - r.discount_rate / 100), 2)), 0)::text as value
  from fp join contract_rows r on ${tenant(ctx, 'r')} and r.id = fp.row_id
 group by 1, 2, 3, 4, 5, 6
