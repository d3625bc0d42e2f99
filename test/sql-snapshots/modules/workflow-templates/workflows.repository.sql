-- src/modules/workflow-templates/workflows.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- projectTemplate
(select count(*)::int from workflow_master_tasks m
where m.company_id = w.company_id and m.template_id = w.id and ${liveTaskSql(ctx, 'm.task_id', false)})

-- projectTemplate
(select count(*)::int from workflow_applications a
where a.company_id = w.company_id and a.template_id = w.id)
