-- src/modules/flextime/flextime.balance.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- daysOf
generate_series(greatest(${sql.ref(start)}, ${b.from})::timestamp, least(${sql.ref(end)}, ${b.to})::timestamp, interval '1 day')

-- expectedCtes
agreement_days as (
  select distinct on (a.person_id, d.day) a.person_id, d.day::date as day,
    case when extract(isodow from d.day)::int = any(a.work_days)
      then a.weekly_hours * 3600 / nullif(cardinality(a.work_days), 0) else 0 end as seconds
  from agreements a
  cross join lateral ${daysOf(b, 'a.date_from', 'a.date_until')} as d(day)
  where a.company_id = ${b.c} and a.person_id = any(${b.ids})
    and a.date_from <= ${b.to} and (a.date_until is null or a.date_until >= ${b.from})
  order by a.person_id, d.day, a.date_from desc, a.id desc
), days_off as (
  select p.person_id, d.day::date as day
  from calendar_entries ce
  join persons p on ce.person_id = p.person_id or (ce.person_id is null and ce.type = 'holiday')
  cross join lateral ${daysOf(b, 'ce.date_from', 'ce.date_until')} as d(day)
  where ce.company_id = ${b.c} and ce.deleted_at is null and ce.date_from <= ${b.to} and ce.date_until >= ${b.from}
    and (ce.type = 'holiday' or (ce.status = 'approved' and ce.type = any(${DAYS_OFF_TYPES}::text[])))
  union
  select p.person_id, g.date
  from global_holidays g join persons p on g.country_code is null or lower(g.country_code) = lower(p.country)
  where g.date between ${b.from} and ${b.to}
), expected as (
  select ad.person_id, sum(ad.seconds) as seconds from agreement_days ad
  where not exists (select 1 from days_off o where o.person_id = ad.person_id and o.day = ad.day)
  group by ad.person_id
)

-- workedCtes
worked as (
  select e.person_id, sum(coalesce(e.duration, floor(extract(epoch from e."end" - e.start)))) as seconds
  from time_entries e
  where e.company_id = ${b.c} and e.deleted_at is null and e."end" is not null and e.person_id = any(${b.ids})
    and e.start >= (${b.from}::timestamp at time zone ${b.tz})
    and e.start < ((${b.to} + 1)::timestamp at time zone ${b.tz})
  group by e.person_id
), adjusted as (
  select f.person_id, sum(f.duration) as seconds from flextime_rows f
  where f.company_id = ${b.c} and f.deleted_at is null and f.person_id = any(${b.ids})
    and f.date between ${b.from} and ${b.to}
  group by f.person_id
)

-- figures
${window.from}::date

-- figures
${window.to}::date

-- figures
${personIds}::int[]

-- figures
with persons as (${memberBalanceBasisSql(ctx, b.ids)}), ${expectedCtes(b)}, ${workedCtes(b)}
select p.person_id,
  round(coalesce(x.seconds, 0))::bigint as expected_seconds,
  coalesce(w.seconds, 0)::bigint as worked_seconds,
  coalesce(j.seconds, 0)::bigint as adjustments_seconds,
  round(coalesce(p.flextime_credit, 0) * 3600)::bigint as opening_seconds
from persons p
left join expected x on x.person_id = p.person_id
left join worked w on w.person_id = p.person_id
left join adjusted j on j.person_id = p.person_id
