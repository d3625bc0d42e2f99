-- src/modules/tasks/tasks.visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskVisible
true

-- taskVisible
(exists (
  select 1 from task_assignees ta
  where ta.company_id = ${ref('company_id')} and ta.task_id = ${ref('id')} and ta.person_id = ${person})
or exists (
  select 1 from task_assignees dta
  where dta.company_id = ${ref('company_id')} and dta.task_id = ${ref('id')}
    and dta.person_id in (${taskDelegatorsSql(`${alias}.company_id`, person, today)}))
or (${ref('client_id')} is not null and ${idVisible(ctx, 'clients', `${alias}.company_id`, `${alias}.client_id`)}))
