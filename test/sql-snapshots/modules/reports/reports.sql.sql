-- src/modules/reports/reports.sql.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- SECS
coalesce(e.duration, extract(epoch from e."end" - e.start)::bigint)

-- entryDay
(e.start at time zone ${w.timezone})::date

-- entriesFrom
from time_entries e
 join tasks t on t.company_id = e.company_id and t.id = e.task_id
 left join topics tp on tp.company_id = t.company_id and tp.id = t.topic_id
where e.company_id = ${ctx.companyId} and e.deleted_at is null and e."end" is not null
  and e.start >= (${w.from}::date::timestamp at time zone ${w.timezone})
  and e.start < ((${w.to}::date + 1)::timestamp at time zone ${w.timezone})
  and ${rowVisible(ctx, 'time_entries', 'e')}

-- agreementDays
ag as (
select distinct on (a.person_id, d.day) a.person_id, d.day::date as day, a.cost_type, a.cost_rate
  from agreements a
 cross join lateral generate_series(greatest(a.date_from, ${w.from}::date)::timestamp,
       least(coalesce(a.date_until, ${w.to}::date), ${w.to}::date)::timestamp, interval '1 day') d(day)
 where a.company_id = ${ctx.companyId} and a.date_from <= ${w.to}::date
   and (a.date_until is null or a.date_until >= ${w.from}::date)
 order by a.person_id, d.day, a.date_from desc, a.id desc)

-- costCtes
hc as (
  select ${key('pd')} as k, sum(pd.secs * ag.cost_rate) / 3600 as cost
    from pd join ag on ag.person_id = pd.person_id and ag.day = pd.day and ag.cost_type = 'hour'
   group by 1),
mc as (
  select x.k, sum(x.cost_rate * x.days / extract(day from x.month + interval '1 month' - interval '1 day')) as cost
    from (select ${key('ag')} as k, ag.person_id, ag.cost_rate, date_trunc('month', ag.day) as month,
                 count(*) as days
            from ag where ag.cost_type = 'month' group by 1, 2, 3, 4) x
   group by x.k),
cost as (
  select k, sum(cost) as cost from (select * from hc union all select * from mc) u group by k)

-- invoicesWhere
${col('company_id')} = ${ctx.companyId}
and ${col('invoice_date')} between ${w.from}::date and ${w.to}::date and ${col('currency')} = ${ctx.company.currency}
