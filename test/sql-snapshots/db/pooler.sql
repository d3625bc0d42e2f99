-- src/db/pooler.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- checkPooledSettings
select
(select setting from pg_settings where name = 'statement_timeout') as statement,
nullif(current_setting('svc.report_statement_timeout', true), '') as report
