-- src/modules/custom-fields/custom-fields.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- nameTaken
lower(f.name) = lower(${name})

-- optionsInUse
and r.deleted_at is null

-- optionsInUse


-- optionsInUse
select o as option from unnest(${[...options]}::text[]) o
where exists (select 1 from ${sql.table(table)} r where ${tenant(ctx, 'r')} ${live}
  and (r.custom_fields -> ${name}) ? o)
order by o
