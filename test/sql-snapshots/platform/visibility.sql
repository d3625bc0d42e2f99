-- src/platform/visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- ALL
true

-- idVisible
exists (select 1 from ${sql.table(table)} ${sql.id(alias)}
where ${sql.ref(`${alias}.company_id`)} = ${sql.ref(companyRef)} and ${sql.ref(`${alias}.id`)} = ${sql.ref(idRef)}
  and ${sql.ref(`${alias}.deleted_at`)} is null and ${rowVisible(ctx, table, alias)})

-- ownPerson
(${sql.join(
  columns.map((column) => sql`${sql.ref(`${alias}.${column}`)} = ${person}`),
  sql` or `,
)})

-- ownPerson
${sql.ref(`${alias}.${column}`)} = ${person}

-- ownPerson
or
