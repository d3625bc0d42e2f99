-- src/modules/billing/unbilled-work.service.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- attempt
savepoint unbilled_rebuild

-- attempt
release savepoint unbilled_rebuild

-- attempt
rollback to savepoint unbilled_rebuild

-- catchUpDue
select distinct company_id from unbilled_work_dirty
limit ${CATCH_UP_BATCH}
