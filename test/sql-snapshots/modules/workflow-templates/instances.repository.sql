-- src/modules/workflow-templates/instances.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- claimApplications
insert into workflow_applications (company_id, template_id, client_id, job_id)
select ${companyValue(ctx)}, ${templateId}, c, ${jobId} from unnest(${[...clientIds]}::int[]) c
on conflict do nothing returning client_id

-- createProjects
with src as materialized (
  select ${nextProjectIdSql()} as pid, c as client_id from unnest(${[...clientIds]}::int[]) c),
ins as (${insertProjectsSql(ctx, 'src', project)}),
upd as (update workflow_applications a set project_id = src.pid from src
  where ${tenant(ctx, 'a')} and a.template_id = ${template.id} and a.client_id = src.client_id)
select pid as id from src order by pid

-- createInstances
select a.client_id, a.project_id, m.task_id as source_id, m.due_in_days
from workflow_applications a
join workflow_master_tasks m on m.company_id = a.company_id and m.template_id = a.template_id
where ${tenant(ctx, 'a')} and a.template_id = ${templateId} and a.client_id = any(${[...clientIds]}::int[])
  and not exists (select 1 from workflow_instances i where i.company_id = a.company_id
    and i.template_id = a.template_id and i.client_id = a.client_id and i.master_task_id = m.task_id)
order by a.client_id, m.task_id

-- createInstances
insert into workflow_instances (company_id, task_id, template_id, master_task_id, client_id)
select ${companyValue(ctx)}, x.task_id, ${templateId}, x.master_id, x.client_id
from unnest(${made.map((r) => r.id)}::int[], ${made.map((r) => r.source_id)}::int[], ${made.map((r) => r.client_id)}::int[])
  as x(task_id, master_id, client_id)

-- teardownOthers
select w.id from workflow_templates w
where ${tenant(ctx, 'w')} and w.kind = ${kind} and w.id <> ${templateId}

-- teardownOthers
select i.task_id from workflow_instances i
where ${tenant(ctx, 'i')} and i.template_id in (${others})
  and i.client_id = any(${[...clientIds]}::int[])

-- teardownOthers
delete from workflow_applications a where ${tenant(ctx, 'a')}
and a.template_id in (${others}) and a.client_id = any(${[...clientIds]}::int[])
