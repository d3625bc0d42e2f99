-- src/modules/members/members.invited.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- lockMemberBy
lower(p.email)
