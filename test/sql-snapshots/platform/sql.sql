-- src/platform/sql.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- nextStamp
greatest(date_trunc('milliseconds', clock_timestamp()), ${sql.ref(column)} + interval '1 millisecond')

-- nowStamp
date_trunc('milliseconds', clock_timestamp())

-- isoz
to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')

-- nameAndEmail
nullif(trim(concat_ws(' ', ${sql.ref(`${alias}.name`)}, ${sql.ref(`${alias}.surname`)},
case when ${email} is not null and ${email} <> '' then '<' || ${email} || '>' end)), '')

-- cappedIds
count(*) over ()
