-- src/modules/workflow-templates/instances.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- claimApplications
insert into workflow_applications (company_id, template_id, client_id, job_id)
select ${ctx.companyId}::uuid, ${templateId}, c, ${jobId} from unnest(${[...clientIds]}::int[]) c
on conflict do nothing returning client_id

-- createProjects
with src as materialized (
  select nextval(pg_get_serial_sequence('projects', 'id'))::int as pid, c as client_id
  from unnest(${[...clientIds]}::int[]) c),
ins as (insert into projects (company_id, id, name, project_type_id, client_id)
  select ${ctx.companyId}::uuid, pid, ${template.name}, ${template.project_type_id}, client_id from src),
upd as (update workflow_applications a set project_id = src.pid from src
  where a.company_id = ${ctx.companyId}::uuid and a.template_id = ${template.id} and a.client_id = src.client_id)
select pid as id from src order by pid

-- createInstances
with src as materialized (
  select nextval(pg_get_serial_sequence('tasks', 'id'))::int as new_id, a.client_id, a.project_id, m.task_id as master_id,
    m.due_in_days, mt.topic_id, mt.title, mt.description, mt.type, mt.is_important, mt.is_extra, mt.estimation,
    mt.workflow_role_ids
  from workflow_applications a
  join workflow_master_tasks m on m.company_id = a.company_id and m.template_id = a.template_id
  join tasks mt on mt.company_id = m.company_id and mt.id = m.task_id and mt.deleted_at is null
  where a.company_id = ${ctx.companyId}::uuid and a.template_id = ${templateId} and a.client_id = any(${[...clientIds]}::int[])
    and not exists (select 1 from workflow_instances i where i.company_id = a.company_id
      and i.template_id = a.template_id and i.client_id = a.client_id and i.master_task_id = m.task_id)
  order by a.client_id, m.task_id),
ins as (insert into tasks (company_id, id, client_id, project_id, topic_id, title, description, type, is_important,
    is_extra, estimation, workflow_role_ids, timezone, due_date, has_due_date)
  select ${ctx.companyId}::uuid, new_id, client_id, project_id, topic_id, title, description, type, is_important,
    is_extra, estimation, workflow_role_ids, ${tz},
    case when due_in_days is not null then (${today}::date + due_in_days)::timestamp at time zone ${tz} end,
    case when due_in_days is not null then 1 else 0 end
  from src),
lnk as (insert into workflow_instances (company_id, task_id, template_id, master_task_id, client_id)
  select ${ctx.companyId}::uuid, new_id, ${templateId}, master_id, client_id from src)
select new_id as id from src order by new_id

-- FIELDS
title, description, type, topic_id, is_important, is_extra, estimation, workflow_role_ids

-- instancePairs
select i.task_id, i.master_task_id from workflow_instances i
where i.company_id = ${ctx.companyId}::uuid and i.template_id = ${templateId}
  and i.client_id = any(${[...clientIds]}::int[])
  and exists (select 1 from tasks mt where mt.company_id = i.company_id and mt.id = i.master_task_id
    and mt.deleted_at is ${live ? sql`null` : sql`not null`})

-- instancePairs
null

-- instancePairs
not null

-- refreshInstances
(select ${fieldsOf('mt')} from tasks mt where mt.company_id = it.company_id and mt.id = p.master_task_id)

-- refreshInstances
update tasks it set (${FIELDS}) = ${master},
  updated_at = ${nextStamp('it.updated_at')}
from (${instancePairs(ctx, templateId, clientIds, true)}) p
where it.company_id = ${ctx.companyId}::uuid and it.id = p.task_id
  and it.deleted_at is null and it.status in ('new', 'in_progress')
  and row(${fieldsOf('it')}) is distinct from (select row(${fieldsOf('mt')}) from tasks mt
    where mt.company_id = it.company_id and mt.id = p.master_task_id)
returning it.id

-- dropOrphanedInstances
update tasks it set deleted_at = now(), updated_at = ${nextStamp('it.updated_at')}
from (${instancePairs(ctx, templateId, clientIds, false)}) p
where it.company_id = ${ctx.companyId}::uuid and it.id = p.task_id
  and it.deleted_at is null and ${untouched('it')}
returning it.id

-- untouched
${alias}.status = 'new' and not exists (select 1 from time_entries te
where te.company_id = ${alias}.company_id and te.task_id = ${alias}.id and te.deleted_at is null)

-- teardownOthers
select w.id from workflow_templates w
where w.company_id = ${ctx.companyId}::uuid and w.kind = ${kind} and w.id <> ${templateId}

-- teardownOthers
update tasks it set deleted_at = now(), updated_at = ${nextStamp('it.updated_at')}
from workflow_instances i
where it.company_id = ${ctx.companyId}::uuid and i.company_id = it.company_id and i.task_id = it.id
  and i.template_id in (${others}) and i.client_id = any(${[...clientIds]}::int[])
  and it.deleted_at is null and ${untouched('it')}

-- teardownOthers
delete from workflow_applications a where a.company_id = ${ctx.companyId}::uuid
and a.template_id in (${others}) and a.client_id = any(${[...clientIds]}::int[])
