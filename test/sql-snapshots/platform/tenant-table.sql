-- src/platform/tenant-table.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- softDelete
update ${sql.table(table)} set deleted_at = now(), updated_at = ${nextStamp()}
where company_id = ${ctx.companyId} and id = any(${list}::int[]) and deleted_at is null
