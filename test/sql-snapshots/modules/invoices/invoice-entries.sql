-- src/modules/invoices/invoice-entries.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- invoiceLinks
any(${[...entryIds]}::int[])
