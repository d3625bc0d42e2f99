-- src/modules/client-workflow/client-workflow.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- workflowTasks
(cardinality(t.workflow_role_ids) > 0 or ${madeFromWorkflow()})
