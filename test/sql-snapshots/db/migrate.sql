-- src/db/migrate.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- latestMigration
select name, applied_at from schema_migrations
order by name desc limit 1
