-- src/modules/tasks/tasks.sources.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskSearchHits
'task'

-- taskSearchHits
t.status

-- taskSearchHits
case when t.title ilike ${p.prefix} then 0 else 1 end
