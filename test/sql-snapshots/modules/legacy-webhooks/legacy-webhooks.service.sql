-- src/modules/legacy-webhooks/legacy-webhooks.service.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- issueToken
now()

-- issueToken
date_trunc('milliseconds', now()) + make_interval(secs => ${TOKEN_TTL_SECONDS})

-- issueToken
to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')

-- resolveToken
now()

-- columns
to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
