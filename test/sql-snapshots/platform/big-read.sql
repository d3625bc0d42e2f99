-- src/platform/big-read.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- REPORT_TIMEOUT
set_config('statement_timeout',
coalesce(nullif(current_setting('svc.report_statement_timeout', true), ''), current_setting('statement_timeout')),
true)

-- BIG_READ
select set_config('jit', 'off', true), set_config('plan_cache_mode', 'force_custom_plan', true),
set_config('work_mem', '64MB', true), ${REPORT_TIMEOUT}

-- withSettings
savepoint big_read

-- withSettings
release savepoint big_read

-- withSettings
rollback to savepoint big_read

-- asReport
select ${REPORT_TIMEOUT}
