-- src/modules/members/members.people.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- activateInvited
date_trunc('milliseconds', clock_timestamp())
