-- src/modules/auth/auth.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- project
k.is_active and (k.grace_expires_at is null or k.grace_expires_at > now())

-- markRotated
date_trunc('milliseconds', now()) + make_interval(hours => ${ROTATION_GRACE_HOURS})
