-- src/modules/projects/projects.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- countHiddenTasks
count(*)::int

-- countHiddenTasks
not ${rowVisible(ctx, 'tasks', 't')}

-- defaultName
count(*)::int + 1
