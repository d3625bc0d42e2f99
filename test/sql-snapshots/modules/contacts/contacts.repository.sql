-- src/modules/contacts/contacts.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- contactJsonColumns
${sql.join(cols)}, ${isoz(`${alias}.created_at`)} as created_at, ${isoz(`${alias}.updated_at`)} as updated_at

-- inlineContacts
(select coalesce(json_agg(x), '[]') from (select ${contactJsonColumns('ct')} from contacts ct
where ct.company_id = c.company_id and ct.client_id = c.id and ct.deleted_at is null
order by ct.is_primary desc, ct.id limit ${limit}) x)

-- applyFilters
lower(ct.email)
