-- src/modules/documents/folders.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- pathOf
(with recursive up(id, parent_id, name, depth) as (
  select p.id, p.parent_id, p.name, 0 from folders p where p.company_id = f.company_id and p.id = f.id
  union all
  select p.id, p.parent_id, p.name, up.depth + 1 from folders p join up on p.company_id = f.company_id and p.id = up.parent_id
) select string_agg(up.name, '/' order by up.depth desc) from up)
