-- src/modules/search/search.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- search
lower(s.title)

-- search
count(*)::int
