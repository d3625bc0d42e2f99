-- src/modules/client-workflow/client-workflow.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- endMemberships
now()

-- workflowTasks
(cardinality(t.workflow_role_ids) > 0 or exists (select 1 from workflow_instances wi
where wi.company_id = t.company_id and wi.task_id = t.id))

-- workflowTasks
exists (select 1 from workflow_instances wf where wf.company_id = t.company_id and wf.task_id = t.id
and wf.template_id = ${filters.template_id as number})

-- projectTask
array(select ta.person_id from task_assignees ta
where ta.company_id = t.company_id and ta.task_id = t.id order by ta.person_id)

-- projectTask
array(select distinct cm.person_id from client_members cm where cm.company_id = t.company_id
and cm.client_id = t.client_id and cm.deleted_at is null and cm.workflow_role_id = any(t.workflow_role_ids)
order by cm.person_id)
