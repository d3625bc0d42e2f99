-- src/modules/task-relations/task-relations.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- dependsTransitively
with recursive reach(id) as (
  select ${from}::int
  union
  select r.depends_on_id from task_relations r join reach on r.task_id = reach.id
  where ${tenant(ctx, 'r')} and r.deleted_at is null and ${liveTaskSql(ctx, 'r.depends_on_id', false)})
select exists (select 1 from reach where id = ${to}) as found
