-- src/modules/contacts/contacts.search.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- contactSearchHits
trim(ct.name || ' ' || coalesce(ct.surname, ''))

-- contactSearchHits
'contact'

-- contactSearchHits
ct.email

-- contactSearchHits
ct.client_id

-- contactSearchHits
case when ${fullName} ilike ${p.prefix} or ct.surname ilike ${p.prefix} or ct.email ilike ${p.prefix} then 0 else 1 end
