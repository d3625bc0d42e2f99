-- src/modules/task-automations/task-automations.visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskAutomationVisible
true

-- taskAutomationVisible
((${sql.ref(`${alias}.client_id`)} is null or ${idVisible(ctx, 'clients', company, `${alias}.client_id`)})
and (${sql.ref(`${alias}.project_id`)} is null or ${idVisible(ctx, 'projects', company, `${alias}.project_id`)}))
