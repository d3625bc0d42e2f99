-- src/modules/reports/reports.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- workTotals
with pd as (
  select e.person_id, ${entryDay(w)} as day, sum(${SECS}) as secs,
         sum(case when ${BILLABLE} then ${SECS} else 0 end) as billable_secs
    ${entriesFrom(ctx, w)}
   group by 1, 2),
${agreementDays(ctx, w)},
${costCtes(() => sql`null::int`)}
select coalesce((select sum(secs) from pd), 0)::text as secs,
       coalesce((select sum(billable_secs) from pd), 0)::text as billable_secs,
       coalesce((select sum(cost) from cost), 0)::text as cost

-- workTotals
null::int

-- invoiceTotals
select
  coalesce(sum(${signedAmount('i', sql`i.net_sum`)}) filter (where ${countedStatus('i')}), 0)::text as revenue,
  coalesce(sum(i.net_sum) filter (where i.status = 'draft'), 0)::text as draft_revenue
from invoices i where ${invoicesWhere(ctx, w)}

-- invoiceTotals
i.net_sum

-- otherCurrencies
select i.currency, count(*)::int as invoices
 from invoices i
where ${tenant(ctx, 'i')} and i.invoice_date between ${w.from}::date and ${w.to}::date
  and i.currency <> ${ctx.company.currency} and i.status <> 'annulled' and ${invoiceType('i')}
group by i.currency order by i.currency

-- biFacts
select
${companyFeatureSql(ctx, 'billing')} as billing,
exists (select 1 from time_entries e where ${tenant(ctx, 'e')} and e.deleted_at is null and e."end" is not null
         and e.start >= (${w.from}::date::timestamp at time zone ${w.timezone})
         and e.start < ((${w.to}::date + 1)::timestamp at time zone ${w.timezone})) as has_time,
exists (select 1 from invoices i where ${tenant(ctx, 'i')} and i.status <> 'annulled' and ${invoiceType('i')}
         and i.invoice_date between ${w.from}::date and ${w.to}::date) as has_invoices,
exists (select 1 from agreements a where ${tenant(ctx, 'a')} and a.cost_rate > 0 and a.date_from <= ${w.to}::date
         and (a.date_until is null or a.date_until >= ${w.from}::date)) as has_cost_rate,
(${anyProductPriceSql(ctx, sql`${w.to}::date`)} or ${anyContractPriceSql(ctx)}) as has_price

-- biFacts
${w.to}::date
