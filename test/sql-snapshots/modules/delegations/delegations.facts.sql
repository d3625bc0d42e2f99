-- src/modules/delegations/delegations.facts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskDelegatorsSql
select dg.delegator_id from delegations dg
where dg.company_id = ${sql.ref(companyRef)} and dg.delegate_id = ${delegateId} and dg.deleted_at is null
  and dg.scope = 'tasks' and dg.date_from <= ${today}::date and dg.date_until >= ${today}::date
