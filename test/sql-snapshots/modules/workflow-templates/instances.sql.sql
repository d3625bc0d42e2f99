-- src/modules/workflow-templates/instances.sql.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- madeFromWorkflow


-- madeFromWorkflow
and wi.template_id = ${templateId}

-- madeFromWorkflow
exists (select 1 from workflow_instances wi
where wi.company_id = t.company_id and wi.task_id = t.id${ofTemplate})

-- workflowOrigin
(select ${sql.ref(`wi.${column}`)} from workflow_instances wi
where wi.company_id = t.company_id and wi.task_id = t.id)
