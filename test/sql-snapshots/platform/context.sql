-- src/platform/context.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- flushSideRecords
${main}

-- flushSideRecords
${sql.id(`side_${i}`)} as (${insert(table, rows)})

-- flushSideRecords
with ${sql.join(ctes)} ${main ?? sql`select 1`}

-- flushSideRecords
select 1
