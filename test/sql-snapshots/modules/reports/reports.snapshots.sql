-- src/modules/reports/reports.snapshots.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- refreshSnapshot
now()

-- refreshSnapshot
report_snapshots.read_computed_at

-- refreshSnapshot
now()

-- refreshSnapshot
now()

-- refreshSnapshot
now()

-- refreshSnapshot
now()

-- refreshSnapshot
to_char(computed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')

-- readComputations
s.read_computed_at > now() - ${`${SNAPSHOT_MAX_AGE_MS} milliseconds`}::interval

-- readComputations
count(*)::int

-- readComputations
coalesce(extract(epoch from min(s.read_computed_at) - now())::float8 * 1000, 0)
+ ${SNAPSHOT_MAX_AGE_MS}::float8

-- snapshotOf
to_char(s.computed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')

-- snapshotOf
s.computed_at > now() - ${`${SNAPSHOT_MAX_AGE_MS} milliseconds`}::interval

-- snapshotOf
s.read_at < now() - interval '1 hour'

-- snapshotOf
now()

-- recentWindows
s.read_at > now() - interval '1 day'

-- recentWindows
s.date_from::text

-- recentWindows
s.date_to::text

-- refreshDue
date_from::text

-- refreshDue
date_to::text
