-- src/modules/task-automations/task-automations.runner.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- takeQueued
delete from task_automation_queue q using events e
where ${tenant(ctx, 'q')} and q.event_id = ${eventId} and e.company_id = q.company_id and e.id = q.event_id
returning e.uuid, e.action, e.record_id, e.data, e.occurred_at

-- processQueued
update task_automation_queue set attempts = attempts + 1
where ${tenant(ctx)} and event_id = ${eventId}

-- processQueue
select company_id, event_id
from task_automation_queue where attempts < ${MAX_ATTEMPTS} and event_id > ${after}
order by event_id limit ${BATCH}

-- dueTasks
exists (select 1 from task_automation_runs r where r.company_id = t.company_id
and r.automation_id = ${rule.id}
and r.trigger_key = 'due:' || t.id || ':' || (extract(epoch from t.due_date) * 1000)::bigint)

-- scanDueDates
select distinct company_id from task_automations
where trigger = 'due_date_reached' and active and deleted_at is null
