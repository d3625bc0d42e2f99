-- src/modules/invoices/invoices.exportable.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- invoiceRowCount
(select count(*)::int from invoice_rows r where r.company_id = i.company_id and r.invoice_id = i.id)
