-- src/modules/reclaims/reclaims.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- entryIds
array(select re.time_entry_id from reclaim_entries re
where re.company_id = r.company_id and re.reclaim_id = r.id order by re.time_entry_id)

-- project
cardinality(${entryIds})

-- applyFilters
exists (select 1 from reclaim_entries re where re.company_id = r.company_id
and re.reclaim_id = r.id and re.time_entry_id = ${filters.time_entry_id})
