-- src/platform/health.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- probeComponents
select 1
