-- src/modules/clients/clients.facts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- liveClientSql
exists (select 1 from clients lc where lc.company_id = ${sql.ref(companyRef)}
and lc.id = ${sql.ref(idRef)} and lc.deleted_at is null)

-- activeClientSql
exists (select 1 from clients lc where lc.company_id = ${sql.ref(companyRef)}
and lc.id = ${sql.ref(idRef)} and lc.deleted_at is null and lc.status = 'active')

-- setHasMonitor
id = any(${unique}::int[])

-- setHasMonitor
has_monitor <> ${flag}
