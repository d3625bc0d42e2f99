-- src/modules/contacts/contacts.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- contactJsonColumns
${sql.join(cols)}, ${isoz(`${alias}.created_at`)} as created_at, ${isoz(`${alias}.updated_at`)} as updated_at

-- applyFilters
lower(ct.email)
