-- src/modules/members/members.facts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- memberPersonIdsSql
select m.person_id from members m where ${tenant(ctx, 'm')} and m.person_id = any(${[...ids]}::int[])

-- memberBalanceBasisSql
select m.person_id, m.address_country_code as country, m.flextime_credit
from members m where ${tenant(ctx, 'm')} and m.person_id = any(${ids})
