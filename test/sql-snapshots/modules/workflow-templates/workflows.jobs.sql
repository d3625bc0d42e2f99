-- src/modules/workflow-templates/workflows.jobs.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- applyTargets
exists (select 1 from client_group_links l where l.company_id = c.company_id
and l.client_id = c.id and l.group_id = ${filter.group_id})
