-- src/modules/sessions/sessions.resets.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- createReset
date_trunc('milliseconds', now()) + make_interval(mins => ${RESET_MINUTES})

-- findReset
r.used_at is null and r.expires_at > now()

-- completeReset
date_trunc('milliseconds', now())

-- sweepResets
now() - interval '1 day'
