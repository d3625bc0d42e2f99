-- src/modules/workflow-templates/workflows.events.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskEvents
'{}'::int[]

-- taskEvents
array(select ta.person_id from task_assignees ta
where ta.company_id = t.company_id and ta.task_id = t.id order by ta.person_id)

-- taskEvents
0

-- taskEvents
(select coalesce(sum(coalesce(te.duration, floor(extract(epoch from coalesce(te."end", now()) - te.start)))), 0)::bigint
from time_entries te where te.company_id = t.company_id and te.task_id = t.id and te.deleted_at is null)
