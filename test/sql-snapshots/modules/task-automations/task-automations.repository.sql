-- src/modules/task-automations/task-automations.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- seedTaskStates
insert into task_automation_task_states (company_id, task_id, status) ${liveTaskStatusesSql(ctx)}
on conflict (company_id, task_id) do update set status = excluded.status
