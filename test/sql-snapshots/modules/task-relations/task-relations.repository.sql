-- src/modules/task-relations/task-relations.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskShown
exists (select 1 from tasks lt where ${tenant(ctx, 'lt')} and lt.id = ${sql.ref(taskIdRef)}
and lt.deleted_at is null and ${rowVisible(ctx, 'tasks', 'lt')})

-- dependsTransitively
with recursive reach(id) as (
  select ${from}::int
  union
  select r.depends_on_id from task_relations r join reach on r.task_id = reach.id
  join tasks t on t.company_id = r.company_id and t.id = r.depends_on_id and t.deleted_at is null
  where ${tenant(ctx, 'r')} and r.deleted_at is null)
select exists (select 1 from reach where id = ${to}) as found
