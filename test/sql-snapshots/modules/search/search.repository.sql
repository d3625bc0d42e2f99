-- src/modules/search/search.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- tasks
'task'

-- tasks
t.status

-- tasks
case when t.title ilike ${p.prefix} then 0 else 1 end

-- contacts
trim(ct.name || ' ' || coalesce(ct.surname, ''))

-- contacts
'contact'

-- contacts
ct.email

-- contacts
ct.client_id

-- contacts
case when ${fullName} ilike ${p.prefix} or ct.surname ilike ${p.prefix} or ct.email ilike ${p.prefix} then 0 else 1 end

-- projects
'project'

-- projects
p.status

-- projects
case when p.name ilike ${p.prefix} then 0 else 1 end

-- search
lower(s.title)

-- search
count(*)::int
