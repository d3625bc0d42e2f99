-- src/modules/sessions/sessions.throttle.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- uncount
greatest(attempts - 1, 0)

-- countAttempt
date_trunc('milliseconds', now()) + make_interval(mins => ${WINDOW_MINUTES})

-- countAttempt
case when auth_throttle.window_ends_at <= now() then 1 else auth_throttle.attempts + 1 end

-- countAttempt
case when auth_throttle.window_ends_at <= now() then excluded.window_ends_at
else auth_throttle.window_ends_at end

-- countAttempt
greatest(1, ceil(extract(epoch from auth_throttle.window_ends_at - now())))::int

-- sweepThrottle
now()
