-- src/platform/session-auth.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- findSession
null

-- findSession
null

-- findSession
m.role

-- findSession
case when c.id is null then null else ${companyJson()} end

-- markExpired
date_trunc('milliseconds', now())

-- markExpired
idle_expires_at <= now() or absolute_expires_at <= now()

-- touch
date_trunc('milliseconds', now())

-- touch
least(date_trunc('milliseconds', now()) + make_interval(secs => ${deps.config.sessions.idleMs / 1000}), absolute_expires_at)

-- touch
last_seen_at <= now() - make_interval(secs => ${resolution / 1000})
