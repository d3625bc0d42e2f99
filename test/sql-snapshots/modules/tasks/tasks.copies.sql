-- src/modules/tasks/tasks.copies.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- createCopies
with src as materialized (
  select nextval(pg_get_serial_sequence('tasks', 'id'))::int as new_id, x.client_id, x.project_id, x.source_id,
    x.due_in_days, ${fieldsOf('mt')}
  from unnest(${column('clientId')}::int[], ${column('projectId')}::int[], ${column('sourceId')}::int[],
    ${column('dueInDays')}::int[]) with ordinality as x(client_id, project_id, source_id, due_in_days, n)
  join tasks mt on ${tenant(ctx, 'mt')} and mt.id = x.source_id and mt.deleted_at is null
  order by x.n),
ins as (insert into tasks (company_id, id, client_id, project_id, topic_id, title, description, type, is_important,
    is_extra, estimation, workflow_role_ids, timezone, due_date, has_due_date)
  select ${companyValue(ctx)}, new_id, client_id, project_id, topic_id, title, description, type, is_important,
    is_extra, estimation, workflow_role_ids, ${tz},
    case when due_in_days is not null then (${today}::date + due_in_days)::timestamp at time zone ${tz} end,
    case when due_in_days is not null then 1 else 0 end
  from src)
select new_id as id, source_id, client_id from src order by new_id

-- pairsOf
select * from unnest(${[...pairs.taskIds]}::int[], ${[...pairs.sourceIds]}::int[]) as p(task_id, source_id)

-- refreshCopies
(select ${fieldsOf('mt')} from tasks mt where mt.company_id = it.company_id and mt.id = p.source_id)

-- refreshCopies
update tasks it set (${FIELDS}) = ${source},
  updated_at = ${nextStamp('it.updated_at')}
from (${pairsOf(pairs)}) p
where ${tenant(ctx, 'it')} and it.id = p.task_id
  and it.deleted_at is null and it.status in (${sql.join([...OPEN_STATUSES])})
  and row(${fieldsOf('it')}) is distinct from (select row(${fieldsOf('mt')}) from tasks mt
    where mt.company_id = it.company_id and mt.id = p.source_id)
  and exists (select 1 from tasks mt where mt.company_id = it.company_id and mt.id = p.source_id
    and mt.deleted_at is null)
returning it.id

-- untouched
${sql.ref(`${alias}.status`)} = 'new' and not ${timeLoggedSql(alias)}

-- dropCopiesOfDeleted
update tasks it set deleted_at = now(), updated_at = ${nextStamp('it.updated_at')}
from (${pairsOf(pairs)}) p
where ${tenant(ctx, 'it')} and it.id = p.task_id
  and it.deleted_at is null and ${untouched('it')}
  and exists (select 1 from tasks mt where mt.company_id = it.company_id and mt.id = p.source_id
    and mt.deleted_at is not null)
returning it.id

-- deleteUntouched
update tasks it set deleted_at = now(), updated_at = ${nextStamp('it.updated_at')}
where ${tenant(ctx, 'it')} and it.id = any(${[...ids]}::int[])
  and it.deleted_at is null and ${untouched('it')}

-- deleteSourceTasks
now()
