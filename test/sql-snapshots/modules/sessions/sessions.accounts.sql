-- src/modules/sessions/sessions.accounts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- ensureAccount
lower(email)

-- sweepSessions
date_trunc('milliseconds', now())

-- sweepSessions
idle_expires_at <= now() or absolute_expires_at <= now()

-- sweepSessions
now() - interval '30 days'
