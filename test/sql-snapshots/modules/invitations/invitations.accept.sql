-- src/modules/invitations/invitations.accept.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- activateMember
date_trunc('milliseconds', clock_timestamp())

-- assertNotMemberElsewhere
lower(a.email)
