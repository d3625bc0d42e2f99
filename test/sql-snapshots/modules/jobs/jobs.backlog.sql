-- src/modules/jobs/jobs.backlog.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- jobBacklog
select
(select count(*) from (select 1 from jobs where status = 'queued' limit ${JOB_BACKLOG_CAP}) q)::int as queued,
(select count(*) from (select 1 from jobs where status = 'running' limit ${JOB_BACKLOG_CAP}) r)::int as running,
coalesce((select extract(epoch from now() - min(created_at)) from jobs where status = 'queued'), 0)::float8
  as oldest_queued_seconds
