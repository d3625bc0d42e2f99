-- src/modules/delegations/delegations.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- project
(dg.date_from <= ${day}::date and dg.date_until >= ${day}::date)

-- applyFilters
(dg.date_from <= ${day}::date and dg.date_until >= ${day}::date)

-- applyFilters
not ${active}
