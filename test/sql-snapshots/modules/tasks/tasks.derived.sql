-- src/modules/tasks/tasks.derived.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskAssigneeIds
array(select ta.person_id from task_assignees ta where ta.company_id = t.company_id and ta.task_id = t.id order by ta.person_id)
