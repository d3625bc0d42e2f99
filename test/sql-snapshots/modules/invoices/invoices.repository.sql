-- src/modules/invoices/invoices.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- recordOf
(select row_to_json(h) from (select ${selectList(fields, alias)}) h)

-- project
${invoiceJson('i')}::text

-- findInvoiceText
${invoiceJson('i')}::text

-- creditedByRow
sum(r.net_sum)::text

-- rowTotals
coalesce(sum(r.net_sum), 0)::text

-- rowTotals
coalesce(sum(r.tax_sum), 0)::text

-- rowCount
count(*)::int

-- nextNumber
invoice_number_counters.last_value + 1
