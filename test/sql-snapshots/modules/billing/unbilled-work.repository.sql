-- src/modules/billing/unbilled-work.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- groupsSql
${workSql(ctx, only(clients))}
select w.client_id, w.contract_id, w.row_id, w.day, ${from} as period_from,
       (${from} + ${periodLength(sql.ref('w.invoice_period'))})::date - 1 as period_until,
       case when w.summarized then 0 else w.task_id end as task_key,
       w.price, w.invoice_period, w.invoice_day, w.currency, w.discount_rate,
       sum(w.billed_secs)::bigint as billed_secs, count(*)::int as entries
  from w group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12

-- DAY_COLUMNS
client_id, contract_id, row_id, day, period_from, period_until, task_key, price,
invoice_period, invoice_day, currency, discount_rate, billed_secs, entries

-- PERIOD_COLUMNS
client_id, contract_id, row_id, period_from, period_until, task_key, price,
invoice_period, invoice_day, currency, billed_secs, entries, value

-- netOf
round(round(${secs} / 3600.0, 4) * ${sql.ref(price)} * (1 - ${sql.ref(discount)} / 100), 2)

-- periodsOf
select g.client_id, g.contract_id, g.row_id, g.period_from,
  g.period_until, g.task_key, g.price, g.invoice_period, g.invoice_day, g.currency,
  sum(g.billed_secs)::bigint as billed_secs, sum(g.entries)::int as entries,
  ${netOf(sql`sum(g.billed_secs)`, 'g.price', 'g.discount_rate')} as value
from (${days}) g group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, g.discount_rate

-- periodsOf
sum(g.billed_secs)

-- ofClients


-- ofClients
and g.client_id = any(${[...clients]}::int[])

-- rebuild
insert into unbilled_work (company_id, ${DAY_COLUMNS})
select ${companyValue(ctx)}, g.* from (${groupsSql(ctx, clients)}) g

-- rebuild
select * from unbilled_work g where ${tenant(ctx, 'g')} ${ofClients(clients)}

-- rebuild
insert into unbilled_work_periods (company_id, ${PERIOD_COLUMNS})
select ${companyValue(ctx)}, p.* from (${periodsOf(days)}) p

-- rebuild
analyze unbilled_work, unbilled_work_periods

-- drop
delete from unbilled_work g where ${tenant(ctx, 'g')} ${ofClients(clients)}

-- drop
delete from unbilled_work_periods g where ${tenant(ctx, 'g')} ${ofClients(clients)}

-- takeDirty
delete from unbilled_work_dirty d where ${tenant(ctx, 'd')}
returning d.client_id

-- markDirty
insert into unbilled_work_dirty (company_id, client_id)
select ${companyValue(ctx)}, c from unnest(${[...clients]}::int[]) c

-- lockCompany
select pg_advisory_xact_lock(hashtextextended('unbilled_work:' || ${companyValue(ctx)}::text, 0))

-- builtAt
select built_at::text from unbilled_work_state s
where ${tenant(ctx, 's')}

-- recordCatchUp
insert into unbilled_work_state (company_id, built_at, caught_up_at)
values (${companyValue(ctx)}, now(), now())
on conflict (company_id) do update set caught_up_at = now(),
  built_at = case when ${full} then now() else unbilled_work_state.built_at end

-- which
(${client}::int is null or ${sql.ref(`${alias}.client_id`)} = ${client}::int)
and ${sql.ref(`${alias}.client_id`)} <> all(${[...(w.excluded ?? [])]}::int[])

-- cut
select g.client_id, g.contract_id, g.invoice_period, g.invoice_day,
   g.currency, g.period_from, sum(g.billed_secs) as secs, sum(g.entries) as n, g.price,
   ${netOf(sql`sum(g.billed_secs)`, 'g.price', 'g.discount_rate')} as value
 from unbilled_work g
where ${tenant(ctx, 'g')} and ${edge} and g.day between ${w.from}::date and ${w.to}::date and ${which('g')}
group by g.row_id, g.client_id, g.contract_id, g.invoice_period, g.invoice_day, g.currency, g.discount_rate,
         g.period_from, g.task_key, g.price

-- cut
sum(g.billed_secs)

-- workPartsSql
with tl as (
  select p.client_id, p.contract_id, p.invoice_period, p.invoice_day, p.currency, p.period_from,
         p.billed_secs as secs, p.entries as n, p.price, p.value
    from unbilled_work_periods p
   where ${tenant(ctx, 'p')} and p.period_from >= ${w.from}::date and p.period_until <= ${w.to}::date
     and ${which('p')}
  ${edges.before === null ? sql`` : sql`union all ${cut(sql`g.period_from >= ${edges.before}::date and g.period_from < ${w.from}::date`)}`}
  ${edges.after === null ? sql`` : sql`union all ${cut(sql`g.period_until > ${w.to}::date and g.period_until <= ${edges.after}::date and g.period_from >= ${w.from}::date`)}`})
select tl.client_id, tl.contract_id, tl.invoice_period, tl.invoice_day, tl.currency, tl.period_from,
       sum(tl.secs) as secs, sum(tl.n)::int as entries,
       sum(case when tl.price is null then tl.n else 0 end)::int as unpriced, coalesce(sum(tl.value), 0) as value
  from tl group by 1, 2, 3, 4, 5, 6

-- workPartsSql


-- workPartsSql
union all ${cut(sql`g.period_from >= ${edges.before}::date and g.period_from < ${w.from}::date`)}

-- workPartsSql
g.period_from >= ${edges.before}::date and g.period_from < ${w.from}::date

-- workPartsSql


-- workPartsSql
union all ${cut(sql`g.period_until > ${w.to}::date and g.period_until <= ${edges.after}::date and g.period_from >= ${w.from}::date`)}

-- workPartsSql
g.period_until > ${w.to}::date and g.period_until <= ${edges.after}::date and g.period_from >= ${w.from}::date

-- differences
select ${DAY_COLUMNS} from unbilled_work g where ${tenant(ctx, 'g')}

-- differences
select ${PERIOD_COLUMNS} from unbilled_work_periods g where ${tenant(ctx, 'g')}

-- differences
with fresh as materialized (${groupsSql(ctx, null)}), stored as (${storedDays}),
  fresh_periods as (${periodsOf(sql`select * from fresh`)}), stored_periods as (${storedPeriods})
select 'missing' as side, client_id, row_id, day::text, task_key from (select * from fresh except all select * from stored) a
union all
select 'extra', client_id, row_id, day::text, task_key from (select * from stored except all select * from fresh) b
union all
select 'missing period', client_id, row_id, period_from::text, task_key
  from (select * from fresh_periods except all select * from stored_periods) c
union all
select 'extra period', client_id, row_id, period_from::text, task_key
  from (select * from stored_periods except all select * from fresh_periods) d
order by 2, 3, 4, 5, 1 limit 100

-- differences
select * from fresh
