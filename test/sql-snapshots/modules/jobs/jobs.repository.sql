-- src/modules/jobs/jobs.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- findJob
case when j.status = 'queued' then ${isoz('j.run_after')} end

-- CLAIMED
j.company_id, j.id, j.type, j.params, j.api_key_id, j.session_person_id, j.processed_count, j.failed_count, j.target_ids, j.attempts

-- CLAIM_SET
status = 'running', started_at = coalesce(j.started_at, ${nowStamp()}), heartbeat_at = ${nowStamp()}, updated_at = ${nextStamp('j.updated_at')}, attempts = j.attempts + 1, run_after = null

-- due
(${sql.ref(column)} is null or ${sql.ref(column)} <= clock_timestamp())

-- claimNext
update jobs j set ${CLAIM_SET}
from (select company_id, id from jobs
  where type = any(${[...types]}::text[]) and ((status = 'queued' and ${due('run_after')}) or (status = 'running'
    and (heartbeat_at is null or heartbeat_at < clock_timestamp() - make_interval(secs => ${STALE_AFTER_SECONDS}))))
  order by created_at, id limit 1 for update skip locked) pick
where j.company_id = pick.company_id and j.id = pick.id
returning ${CLAIMED}

-- claimQueued
update jobs j set ${CLAIM_SET}
where j.company_id = ${companyId} and j.id = ${id} and j.status = 'queued' and ${due('j.run_after')} returning ${CLAIMED}

-- retryLater
date_trunc('milliseconds', clock_timestamp()) + make_interval(secs => ${delayMs / 1000})

-- markDone
date_trunc('milliseconds', clock_timestamp())

-- recordClientOutcome
coalesce(skipped_count, 0) + ${outcome.skipped.length}

-- recordClientOutcome
coalesce(skipped_client_ids, '{}') || ${outcome.skipped}::int[]

-- recordClientOutcome
coalesce(failed_client_ids, '{}') || ${outcome.failed}::int[]

-- sessionJobActor
m.role
