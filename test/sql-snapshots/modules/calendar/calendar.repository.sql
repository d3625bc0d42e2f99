-- src/modules/calendar/calendar.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- globalEntries
-g.id

-- globalEntries
'holiday'

-- globalEntries
null::int

-- globalEntries
'approved'

-- globalEntries
g.name
