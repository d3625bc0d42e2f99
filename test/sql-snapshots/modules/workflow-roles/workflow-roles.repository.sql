-- src/modules/workflow-roles/workflow-roles.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- nextSortOrder
least(coalesce(max(w.sort_order), 0) + 1, ${cap})::int
