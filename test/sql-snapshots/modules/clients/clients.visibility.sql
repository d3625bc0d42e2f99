-- src/modules/clients/clients.visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- clientVisible
true

-- clientVisible
(${sql.ref(`${alias}.default_person_id`)} = ${person} or exists (
select 1 from client_members cm
where cm.company_id = ${sql.ref(`${alias}.company_id`)} and cm.client_id = ${sql.ref(`${alias}.id`)}
  and cm.person_id = ${person} and cm.deleted_at is null))
