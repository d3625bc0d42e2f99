-- src/platform/auth.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- findKey
m.role

-- findKey
json_build_object('id', c.id, 'name', c.name, 'timezone', c.timezone, 'currency', c.currency,
'subscription_status', c.subscription_status, 'plan', c.plan, 'features', c.features)

-- touchLastUsed
now()
