-- src/modules/billing/billing.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- workLines
${workSql(ctx, w)}
select w.id, w.task_id, w.title, w.person_id, to_json(w."end")#>>'{}' as "end", w.day::text as day,
       w.billed_secs::text as billed_secs, w.contract_id, w.row_id, w.summarized, w.price::text as price
  from w order by w.contract_id, w.row_id, w.day, w.id

-- feeLines
${feesSql(ctx, w)}
select f.contract_id, f.row_id, f.period_from::text as period_from, f.period_until::text as period_until,
       ${feeQuantitySql}::text as quantity, ${feePriceSql}::text as price
  from f order by f.contract_id, f.row_id, f.period_from

-- activeContracts
nullif(k.settings->>'summarized_description', '')

-- rowTerms
coalesce(r.unit, p.unit)

-- rowTerms
r.discount_rate::text

-- rowTerms
coalesce(r.tax_id, p.tax_id)

-- linkBilled
insert into invoice_row_entries (company_id, time_entry_id, invoice_row_id, invoice_id)
select ${companyValue(ctx)}, x.entry_id, x.row_id, ${invoiceId}::int
  from unnest(${entryIds}::int[], ${rowIds}::int[]) as x(entry_id, row_id)
