-- src/modules/attachments/attachments.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- settle
now()
