-- src/modules/clients/clients.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- project
array(select l.group_id from client_group_links l join client_groups g on g.company_id = l.company_id and g.id = l.group_id
where l.company_id = c.company_id and l.client_id = c.id and g.deleted_at is null order by l.group_id)

-- ancestorIds
with recursive up(id, parent_id, depth) as (
  select id, parent_id, 0 from clients where ${tenant(ctx)} and id = ${id}
  union all
  select c.id, c.parent_id, up.depth + 1 from clients c join up on ${tenant(ctx, 'c')} and c.id = up.parent_id where up.depth < 100)
select id from up
