-- src/modules/content-templates/content-templates.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- clearDefault
select pg_advisory_xact_lock(hashtext(${key}))
