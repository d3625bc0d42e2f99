-- src/modules/agreements/agreements.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- isMemberPerson
1
