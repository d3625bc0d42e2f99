-- src/modules/projects/projects.search.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- projectSearchHits
'project'

-- projectSearchHits
p.status

-- projectSearchHits
case when p.name ilike ${p.prefix} then 0 else 1 end
