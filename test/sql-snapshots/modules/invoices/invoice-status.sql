-- src/modules/invoices/invoice-status.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- billedStatus
${sql.ref(`${alias}.status`)} in (${sql.join(BILLED_STATUSES.map((s) => sql.lit(s)))}) and ${invoiceType(alias)}

-- invoiceType
${sql.ref(`${alias}.type`)} = 'invoice'
