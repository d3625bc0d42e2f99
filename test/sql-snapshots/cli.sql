-- src/cli.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- usedByOthers
select count(*)::int as n from pg_stat_activity
where backend_type = 'client backend' and pid <> pg_backend_pid() and application_name <> ${CLI_APPLICATION}
