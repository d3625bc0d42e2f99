-- src/modules/task-automations/task-automations.actions.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- markAutomationWork
select set_config('app.task_automation', 'on', true)
