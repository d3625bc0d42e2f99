-- src/modules/invoices/invoice-status.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- billedStatus
${sql.ref(`${alias}.status`)} in (${sql.join(BILLED_STATUSES.map((s) => sql.lit(s)))}) and ${invoiceType(alias)}

-- invoiceType
${sql.ref(`${alias}.type`)} = 'invoice'

-- billedIn
${sql.ref(`${alias}.status`)} in (${sql.join(BILLED_STATUSES.map((s) => sql.lit(s)))})

-- countedStatus
${billedIn(alias)} and (${invoiceType(alias)}
or exists (select 1 from invoices credited where credited.company_id = ${sql.ref(`${alias}.company_id`)}
            and credited.id = ${sql.ref(`${alias}.credited_invoice_id`)} and ${billedIn('credited')}))

-- signedAmount
case when ${sql.ref(`${alias}.type`)} = 'credit_note' then -${amount} else ${amount} end
