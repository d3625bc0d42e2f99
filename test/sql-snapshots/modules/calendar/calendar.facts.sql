-- src/modules/calendar/calendar.facts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- daysOffSql
select p.person_id, d.day::date as day
from calendar_entries ce
join ${sql.table(persons)} p on ce.person_id = p.person_id or (ce.person_id is null and ce.type = 'holiday')
cross join lateral ${days('ce.date_from', 'ce.date_until')} as d(day)
where ${tenant(ctx, 'ce')} and ce.deleted_at is null and ce.date_from <= ${window.to} and ce.date_until >= ${window.from}
  and (ce.type = 'holiday' or (ce.status = 'approved' and ce.type = any(${[...types]}::text[])))
union
select p.person_id, g.date
from global_holidays g join ${sql.table(persons)} p on g.country_code is null or lower(g.country_code) = lower(p.country)
where g.date between ${window.from} and ${window.to}
