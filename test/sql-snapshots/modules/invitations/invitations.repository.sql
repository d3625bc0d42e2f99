-- src/modules/invitations/invitations.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- statusOf
case when i.state = 'pending' and i.expires_at <= now() then 'expired' else i.state end

-- expiresFromNow
date_trunc('milliseconds', now()) + make_interval(days => ${INVITATION_DAYS})

-- findByToken
i.state = 'pending' and i.expires_at > now() and m.status in ('pending', 'limited')
