-- src/platform/auth.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- findKey
m.role

-- touchLastUsed
now()
