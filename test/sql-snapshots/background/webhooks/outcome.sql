-- src/background/webhooks/outcome.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- countOutcome
failure_count + 1

-- countOutcome
clock_timestamp()

-- countOutcome
clock_timestamp()

-- countOutcome
clock_timestamp()

-- record
select clock_timestamp() as now,
clock_timestamp() + make_interval(secs => ${retry ? delays[row.attempt - 1]! / 1000 : 0}) as retry_at
