-- src/modules/client-groups/client-groups.refs.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- inGroupSql
exists (select 1 from client_group_links l where l.company_id = ${sql.ref(`${alias}.company_id`)}
and l.client_id = ${sql.ref(`${alias}.id`)} and l.group_id = ${groupId})
