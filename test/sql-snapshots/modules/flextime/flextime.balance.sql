-- src/modules/flextime/flextime.balance.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- daysOf
generate_series(greatest(${sql.ref(start)}, ${b.from})::timestamp, least(${sql.ref(end)}, ${b.to})::timestamp, interval '1 day')

-- expectedCtes
agreement_days as (${agreementDaysSql(ctx, b, b.ids, (start, end) => daysOf(b, start, end))}),
days_off as (${daysOffSql(ctx, b, 'persons', DAYS_OFF_TYPES, (start, end) => daysOf(b, start, end))}),
expected as (
  select ad.person_id, sum(ad.seconds) as seconds from agreement_days ad
  where not exists (select 1 from days_off o where o.person_id = ad.person_id and o.day = ad.day)
  group by ad.person_id
)

-- workedCtes
worked as (${closedSecondsByPersonSql(
  ctx,
  b.ids,
  sql`(${b.from}::timestamp at time zone ${b.tz})`,
  sql`((${b.to} + 1)::timestamp at time zone ${b.tz})`,
)}), adjusted as (
  select f.person_id, sum(f.duration) as seconds from flextime_rows f
  where ${tenant(ctx, 'f')} and f.deleted_at is null and f.person_id = any(${b.ids})
    and f.date between ${b.from} and ${b.to}
  group by f.person_id
)

-- workedCtes
(${b.from}::timestamp at time zone ${b.tz})

-- workedCtes
((${b.to} + 1)::timestamp at time zone ${b.tz})

-- figures
${window.from}::date

-- figures
${window.to}::date

-- figures
${personIds}::int[]

-- figures
with persons as (${memberBalanceBasisSql(ctx, b.ids)}), ${expectedCtes(ctx, b)}, ${workedCtes(ctx, b)}
select p.person_id,
  round(coalesce(x.seconds, 0))::bigint as expected_seconds,
  coalesce(w.seconds, 0)::bigint as worked_seconds,
  coalesce(j.seconds, 0)::bigint as adjustments_seconds,
  round(coalesce(p.flextime_credit, 0) * 3600)::bigint as opening_seconds
from persons p
left join expected x on x.person_id = p.person_id
left join worked w on w.person_id = p.person_id
left join adjusted j on j.person_id = p.person_id
