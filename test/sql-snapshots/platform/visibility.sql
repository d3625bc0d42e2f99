-- src/platform/visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- clientVisible
true

-- clientVisible
(${sql.ref(`${clientAlias}.default_person_id`)} = ${person} or exists (
select 1 from client_members cm
where cm.company_id = ${sql.ref(`${clientAlias}.company_id`)} and cm.client_id = ${sql.ref(`${clientAlias}.id`)}
  and cm.person_id = ${person} and cm.deleted_at is null))

-- clientIdVisible
true

-- clientIdVisible
exists (
select 1 from clients vc
where vc.company_id = ${sql.ref(companyRef)} and vc.id = ${sql.ref(clientIdRef)} and vc.deleted_at is null
  and (vc.default_person_id = ${person} or exists (
    select 1 from client_members cm
    where cm.company_id = vc.company_id and cm.client_id = vc.id and cm.person_id = ${person} and cm.deleted_at is null)))

-- taskVisible
true

-- taskVisible
(exists (
  select 1 from task_assignees ta
  where ta.company_id = ${sql.ref(`${taskAlias}.company_id`)} and ta.task_id = ${sql.ref(`${taskAlias}.id`)} and ta.person_id = ${person})
or exists (
  select 1 from delegations dg join task_assignees dta on dta.company_id = dg.company_id and dta.person_id = dg.delegator_id
  where dg.company_id = ${sql.ref(`${taskAlias}.company_id`)} and dg.delegate_id = ${person} and dg.deleted_at is null
    and dg.scope = 'tasks' and dg.date_from <= ${today}::date and dg.date_until >= ${today}::date
    and dta.task_id = ${sql.ref(`${taskAlias}.id`)})
or (${sql.ref(`${taskAlias}.client_id`)} is not null and ${clientIdVisible(ctx, `${taskAlias}.company_id`, `${taskAlias}.client_id`)}))

-- taskIdVisible
true

-- taskIdVisible
exists (select 1 from tasks vt where vt.company_id = ${sql.ref(companyRef)} and vt.id = ${sql.ref(taskIdRef)}
and vt.deleted_at is null and ${taskVisible(ctx, 'vt')})

-- timeEntryVisible
true

-- timeEntryVisible
(${sql.ref(`${entryAlias}.person_id`)} = ${ctx.actor.personId}
or ${taskIdVisible(ctx, `${entryAlias}.company_id`, `${entryAlias}.task_id`)})

-- projectVisible
true

-- projectVisible
(${sql.ref(`${projectAlias}.manager_id`)} = ${ctx.actor.personId}
or (${sql.ref(`${projectAlias}.client_id`)} is not null and ${clientIdVisible(ctx, `${projectAlias}.company_id`, `${projectAlias}.client_id`)}))

-- projectIdVisible
true

-- projectIdVisible
exists (select 1 from projects vp where vp.company_id = ${sql.ref(companyRef)}
and vp.id = ${sql.ref(projectIdRef)} and vp.deleted_at is null and ${projectVisible(ctx, 'vp')})

-- noteVisible
true

-- noteVisible
(case ${type}
when 'client' then ${clientIdVisible(ctx, company, related)}
when 'project' then ${projectIdVisible(ctx, company, related)}
else true end)

-- noteIdVisible
true

-- noteIdVisible
exists (select 1 from notes vn where vn.company_id = ${sql.ref(companyRef)}
and vn.id = ${sql.ref(noteIdRef)} and vn.deleted_at is null and ${noteVisible(ctx, 'vn')})

-- attachmentVisible
true

-- attachmentVisible
(case ${sql.ref(`${alias}.related_type`)}
when 'task' then ${taskIdVisible(ctx, company, related)}
when 'note' then ${noteIdVisible(ctx, company, related)}
else false end)

-- digitizationVisible
true

-- digitizationVisible
exists (select 1 from documents vd
where vd.company_id = ${sql.ref(`${alias}.company_id`)} and vd.id = ${sql.ref(`${alias}.document_id`)}
  and vd.deleted_at is null and ${ofVisibleClient(ctx, 'vd')})

-- taskAutomationVisible
true

-- taskAutomationVisible
((${sql.ref(`${alias}.client_id`)} is null or ${clientIdVisible(ctx, company, `${alias}.client_id`)})
and (${sql.ref(`${alias}.project_id`)} is null or ${projectIdVisible(ctx, company, `${alias}.project_id`)}))

-- calendarVisible
true

-- calendarVisible
(${sql.ref(`${alias}.person_id`)} = ${ctx.actor.personId} or ${sql.ref(`${alias}.person_id`)} is null)

-- delegationVisible
true

-- delegationVisible
(${sql.ref(`${alias}.delegator_id`)} = ${person} or ${sql.ref(`${alias}.delegate_id`)} = ${person})

-- activityVisible
true

-- activityVisible
${sql.ref(`${alias}.person_id`)} = ${ctx.actor.personId}
