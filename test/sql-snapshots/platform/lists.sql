-- src/platform/lists.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- pageQuery
(${sql.ref(shape.column)}, ${sql.ref(shape.idColumn)}) ${op} (${values.lastValue}, ${values.lastId})

-- countQuery
(select count(*)::int from (${capped}) as capped)
