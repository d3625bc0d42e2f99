-- src/platform/idempotency.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- CLAIM_STAMP
(extract(epoch from idempotency_keys.created_at) * 1000000)::bigint

-- claim
now() + interval '24 hours'

-- claim
now()

-- claim
now() + interval '24 hours'

-- claim
idempotency_keys.expires_at <= now() or (idempotency_keys.state = 'running' and idempotency_keys.created_at < now() - make_interval(secs => ${STALE_RUNNING_SECONDS}))

-- claim
set_config('synchronous_commit', 'off', true)

-- outcomeStatement
1

-- purgeExpiredIdempotency
now()
