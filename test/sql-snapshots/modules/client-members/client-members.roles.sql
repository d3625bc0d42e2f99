-- src/modules/client-members/client-members.roles.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- endMemberships
now()

-- countRoleHolders
count(*)::int

-- roleHolderIds
array(select distinct cm.person_id from client_members cm where cm.company_id = t.company_id
and cm.client_id = t.client_id and cm.deleted_at is null and cm.workflow_role_id = any(t.workflow_role_ids)
order by cm.person_id)
