-- src/modules/contracts/contracts.limits.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- rowCounts
count(*)::int

-- assertPriceRoom
count(*)::int

-- templateSize
count(*)::int

-- templateSize
coalesce(sum((select count(*) from contract_row_prices p
where p.company_id = r.company_id and p.contract_row_id = r.id)), 0)::int
