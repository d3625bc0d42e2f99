-- src/modules/tasks/tasks.facts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- liveTaskSql
true

-- liveTaskSql
exists (select 1 from tasks lt where ${tenant(ctx, 'lt')} and lt.id = ${sql.ref(idRef)}
and lt.deleted_at is null and ${seen})

-- countOpenTasksWithRole
count(*)::int

-- countOpenTasksWithRole
t.workflow_role_ids @> array[${roleId}]::int[]

-- leanTaskRows
'{}'::int[]

-- leanTaskRows
0
