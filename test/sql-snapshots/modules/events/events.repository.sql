-- src/modules/events/events.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- feed
now() - make_interval(days => ${EVENT_RETENTION_DAYS})

-- feed
e.xact_id < pg_snapshot_xmin(pg_current_snapshot())

-- project
e.uuid::text

-- project
e.xact_id::text
