-- src/modules/clients/clients.plans.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- planClientSql
exists (select 1 from clients pc where pc.company_id = ${sql.ref(companyRef)} and pc.id = ${sql.ref(idRef)} and pc.type = 'plan')

-- deletePlanClient
now()

-- seenClientSql
exists (select 1 from clients c where c.company_id = ${sql.ref(companyRef)} and c.id = ${sql.ref(idRef)}
and c.deleted_at is null and ${rowVisible(ctx, 'clients', 'c')})
