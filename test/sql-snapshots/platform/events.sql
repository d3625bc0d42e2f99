-- src/platform/events.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- purgeExpiredEvents
delete from events where (company_id, id) in (select company_id, id from events
where occurred_at < now() - make_interval(days => ${EVENT_RETENTION_DAYS}) limit 5000)
