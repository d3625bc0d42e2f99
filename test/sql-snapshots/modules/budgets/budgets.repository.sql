-- src/modules/budgets/budgets.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- BILLED
i.company_id = b.company_id
and ${countedStatus('i')}
and i.currency = ${companyCurrencySql(sql.ref('b.company_id'))}
and (b.date_from is null or i.invoice_date >= b.date_from)
and (b.date_until is null or i.invoice_date <= b.date_until)

-- PROJECT_ROWS
exists (
select 1 from invoice_row_entries e
join time_entries te on te.company_id = e.company_id and te.id = e.time_entry_id
join tasks t on t.company_id = te.company_id and t.id = te.task_id
where e.company_id = r.company_id and e.invoice_row_id = coalesce(r.credited_row_id, r.id) and t.project_id = b.project_id)

-- invoiceSum
(select coalesce(sum(${signedAmount('i', sql`i.net_sum`)}), 0) from invoices i where ${BILLED} and ${client})

-- invoiceSum
i.net_sum

-- projectSum
(select coalesce(sum(${signedAmount('i', sql`r.net_sum`)}), 0) from invoice_rows r
join invoices i on i.company_id = r.company_id and i.id = r.invoice_id
where r.company_id = b.company_id and ${BILLED} and ${client} and ${PROJECT_ROWS})

-- projectSum
r.net_sum

-- CLIENT
i.client_id = b.client_id

-- ANY_CLIENT
true

-- SPENT
case
when b.project_id is null and b.client_id is null then ${invoiceSum(ANY_CLIENT)}
when b.project_id is null then ${invoiceSum(CLIENT)}
when b.client_id is null then ${projectSum(ANY_CLIENT)}
else ${projectSum(CLIENT)} end
