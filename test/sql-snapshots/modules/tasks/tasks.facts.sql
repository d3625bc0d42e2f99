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

-- liveTaskStatusesSql
select company_id, id, status from tasks where ${tenant(ctx)} and deleted_at is null

-- dueOpenTasks
select t.id, (extract(epoch from t.due_date) * 1000)::bigint as due_ms, t.due_date,
  t.client_id, t.project_id, t.topic_id, t.type, t.status
from tasks t
where ${tenant(ctx, 't')} and t.deleted_at is null and t.has_due_date = 1
  and t.status in (${sql.join([...OPEN_STATUSES])}) and t.is_recurring = 0
  and t.due_date <= ${due.until} and t.due_date > ${due.since} and not ${unless}
order by t.due_date, t.id limit ${limit}
