-- src/modules/tasks/tasks.derived.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskAssigneeIds
array(select ta.person_id from task_assignees ta where ta.company_id = t.company_id and ta.task_id = t.id order by ta.person_id)

-- taskTrackedSeconds
(select coalesce(sum(case when te."end" is null then greatest(0, floor(extract(epoch from now() - te.start)))
  else coalesce(te.duration, floor(extract(epoch from te."end" - te.start))) end), 0)::bigint
from time_entries te where te.company_id = t.company_id and te.task_id = t.id and te.deleted_at is null)
