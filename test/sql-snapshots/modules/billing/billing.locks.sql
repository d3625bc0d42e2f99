-- src/modules/billing/billing.locks.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- lockedEntries
select l.time_entry_id, i.id as invoice_id, i.invoice_number, i.period_from::text as period_from,
      i.period_until::text as period_until
 from invoice_row_entries l
 join invoices i on i.company_id = l.company_id and i.id = l.invoice_id
where l.company_id = ${ctx.companyId} and l.time_entry_id = any(${[...ids]}::int[])
  and ${billedStatus('i')}

-- lockedPeriodsQuery
select x.n::int as n, i.id as invoice_id, i.invoice_number, i.period_from::text as period_from,
     i.period_until::text as period_until
from ${items} as x(task_id, start, n)
join tasks t on t.company_id = ${ctx.companyId} and t.id = x.task_id
cross join lateral (
  select i.* from invoices i
   where i.company_id = ${ctx.companyId} and i.client_id = t.client_id and i.bills_time
     and ${billedStatus('i')}
     and (x.start at time zone ${ctx.company.timezone})::date between i.period_from and i.period_until
   order by i.id limit 1) i

-- lockedPeriods
unnest(${items.map((i) => i.task_id)}::int[], ${items.map((i) => i.start)}::timestamptz[])
with ordinality

-- entryLocks
(select te.task_id, te.start, te.id from time_entries te
where te.company_id = ${ctx.companyId} and te.id = any(${[...ids]}::int[]))
