-- src/modules/client-groups/client-groups.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- countActiveMembers
count(*)::int
