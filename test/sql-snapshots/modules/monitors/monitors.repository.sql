-- src/modules/monitors/monitors.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- sameIdentity
coalesce(mo.role_person_id, 0) = ${identity.role_person_id ?? 0}

-- syncHasMonitor
(exists (select 1 from monitors m where m.company_id = clients.company_id
and m.client_id = clients.id and m.active and m.deleted_at is null))::int::smallint
