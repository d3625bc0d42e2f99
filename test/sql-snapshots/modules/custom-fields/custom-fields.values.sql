-- src/modules/custom-fields/custom-fields.values.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- customFieldConditions
((${column} ->> ${name}) = ${value}
or (jsonb_typeof(${column} -> ${name}) = 'array' and (${column} -> ${name}) ? ${value}))
