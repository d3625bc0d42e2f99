-- src/modules/tasks/tasks.visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskVisible
true

-- taskVisible
(exists (
  select 1 from task_assignees ta
  where ta.company_id = ${ref('company_id')} and ta.task_id = ${ref('id')} and ta.person_id = ${person})
or exists (
  select 1 from delegations dg join task_assignees dta on dta.company_id = dg.company_id and dta.person_id = dg.delegator_id
  where dg.company_id = ${ref('company_id')} and dg.delegate_id = ${person} and dg.deleted_at is null
    and dg.scope = 'tasks' and dg.date_from <= ${today}::date and dg.date_until >= ${today}::date
    and dta.task_id = ${ref('id')})
or (${ref('client_id')} is not null and ${idVisible(ctx, 'clients', `${alias}.company_id`, `${alias}.client_id`)}))
