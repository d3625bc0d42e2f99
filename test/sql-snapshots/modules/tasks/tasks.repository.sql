-- src/modules/tasks/tasks.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- project
(select coalesce(json_agg(x order by x.id), '[]') from (
select c.id, c.task_id, c.person_id, c.body, ${isoz('c.created_at')} as created_at, ${isoz('c.updated_at')} as updated_at
from task_comments c where c.company_id = t.company_id and c.task_id = t.id and c.deleted_at is null
order by c.id desc limit ${COMMENTS_INLINE_CAP + 1}) x)

-- notTemplate
(t.template_kind is null and not ${planClientSql('t.company_id', 't.client_id')})

-- applyFilters
exists (select 1 from task_assignees fa where fa.company_id = t.company_id and fa.task_id = t.id and fa.person_id = ${filters.assignee_id})

-- setStatus
date_trunc('milliseconds', clock_timestamp())

-- setStatus
case when status = any(${[...OPEN_STATUSES]}::text[]) then status end

-- reopenTask
coalesce(reopen_status, 'new')

-- copyAssignees
insert into task_assignees (company_id, task_id, person_id)
select ta.company_id, o.id, ta.person_id from task_assignees ta cross join unnest(${[...toTaskIds]}::int[]) as o(id)
where ${tenant(ctx, 'ta')} and ta.task_id = ${fromTaskId} on conflict do nothing
