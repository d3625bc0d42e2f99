-- src/platform/tenant-table.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- tenant
${sql.raw(alias ? `${alias}.company_id` : 'company_id')} = ${ctx.companyId}

-- lockCompanyScope
select pg_advisory_xact_lock(hashtext(${`${scope}:${ctx.companyId}`}))

-- companyValue
${ctx.companyId}::uuid

-- softDelete
update ${sql.table(table)} set deleted_at = now(), updated_at = ${nextStamp()}
where company_id = ${ctx.companyId} and id = any(${list}::int[]) and deleted_at is null
