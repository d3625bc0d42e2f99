-- src/modules/client-members/client-members.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- live
exists (select 1 from clients lc where lc.company_id = cm.company_id and lc.id = cm.client_id and lc.deleted_at is null)
