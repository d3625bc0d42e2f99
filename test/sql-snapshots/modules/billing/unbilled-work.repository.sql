-- src/modules/billing/unbilled-work.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- groupsSql
${workSql(ctx, only(clients))}
select w.client_id, w.contract_id, w.row_id, w.day, case when w.summarized then 0 else w.task_id end as task_key,
       w.price, w.invoice_period, w.invoice_day, w.currency, w.discount_rate,
       sum(w.billed_secs)::bigint as billed_secs, count(*)::int as entries
  from w group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10

-- COLUMNS
client_id, contract_id, row_id, day, task_key, price, invoice_period, invoice_day, currency,
discount_rate, billed_secs, entries

-- rebuild


-- rebuild
and g.client_id = any(${[...clients]}::int[])

-- rebuild
delete from unbilled_work g where ${tenant(ctx, 'g')} ${which}

-- rebuild
insert into unbilled_work (company_id, ${COLUMNS})
select ${companyValue(ctx)}, g.* from (${groupsSql(ctx, clients)}) g

-- clear
delete from unbilled_work g where ${tenant(ctx, 'g')}

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

-- workPartsSql
with tl as (
  select g.row_id, g.client_id, g.contract_id, g.invoice_period, g.invoice_day, g.currency, g.discount_rate,
         ${period} as period_from, g.task_key, g.price, sum(g.billed_secs) as secs, sum(g.entries) as n
    from unbilled_work g
   where ${tenant(ctx, 'g')} and g.day between ${w.from}::date and ${w.to}::date
     and (${client}::int is null or g.client_id = ${client}::int) and g.client_id <> all(${excluded}::int[])
   group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
select tl.client_id, tl.contract_id, tl.invoice_period, tl.invoice_day, tl.currency, tl.period_from,
       sum(tl.secs) as secs, sum(tl.n)::int as entries,
       sum(case when tl.price is null then tl.n else 0 end)::int as unpriced,
       coalesce(sum(round(round(tl.secs / 3600.0, 4) * tl.price * (1 - tl.discount_rate / 100), 2)), 0) as value
  from tl group by 1, 2, 3, 4, 5, 6

-- differences
select ${COLUMNS} from unbilled_work g where ${tenant(ctx, 'g')}

-- differences
with fresh as (${groupsSql(ctx, null)}), stored as (${stored})
select 'missing' as side, client_id, row_id, day::text, task_key from (select * from fresh except all select * from stored) a
union all
select 'extra', client_id, row_id, day::text, task_key from (select * from stored except all select * from fresh) b
order by 2, 3, 4, 5, 1 limit 100
