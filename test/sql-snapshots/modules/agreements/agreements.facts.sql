-- src/modules/agreements/agreements.facts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- agreementDaysSql
select distinct on (a.person_id, d.day) a.person_id, d.day::date as day,
  case when extract(isodow from d.day)::int = any(a.work_days)
    then a.weekly_hours * 3600 / nullif(cardinality(a.work_days), 0) else 0 end as seconds
from agreements a
cross join lateral ${days('a.date_from', 'a.date_until')} as d(day)
where ${tenant(ctx, 'a')} and a.person_id = any(${ids})
  and a.date_from <= ${window.to} and (a.date_until is null or a.date_until >= ${window.from})
order by a.person_id, d.day, a.date_from desc, a.id desc
