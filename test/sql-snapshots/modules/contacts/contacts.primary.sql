-- src/modules/contacts/contacts.primary.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- primaryContactLine
(select ${nameAndEmail('p')} from contacts p where p.company_id = c.company_id
and p.client_id = c.id and p.deleted_at is null order by p.is_primary desc, p.id limit 1)
