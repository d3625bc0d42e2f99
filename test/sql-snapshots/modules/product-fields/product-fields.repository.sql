-- src/modules/product-fields/product-fields.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- codeTaken
lower(pf.code)

-- countUses
count(*)::int

-- countUses
count(*)::int
