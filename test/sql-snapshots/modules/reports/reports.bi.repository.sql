-- src/modules/reports/reports.bi.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- entryKey
e.person_id

-- entryKey
t.project_id

-- entryKey
t.topic_id

-- timeGroups
select ${entryKey(ctx, groupBy)} as id, sum(${SECS})::text as secs,
   sum(case when ${BILLABLE} then ${SECS} else 0 end)::text as billable_secs
 ${entriesFrom(ctx, w)}
group by 1

-- hoursBy
select ${key} as k, sum(${SECS})::text as v
${entriesFrom(ctx, w)} group by 1

-- bucketOf
date_trunc(${interval}, ${day})::date::text

-- revenueByBucket
select ${bucketOf(interval, sql`i.invoice_date`)} as k, sum(${signedAmount('i', sql`i.net_sum`)})::text as v
 from invoices i where ${invoicesWhere(ctx, w)} and ${countedStatus('i')}
group by 1

-- revenueByBucket
i.invoice_date

-- revenueByBucket
i.net_sum

-- revenueBy
select i.client_id as k, sum(${signedAmount('i', sql`i.net_sum`)})::text as v
from invoices i where ${invoicesWhere(ctx, w)} and ${finalized} group by 1

-- revenueBy
i.net_sum

-- revenueBy
select ${by === 'person' ? sql`r.person_id` : sql`r.product_id`} as k,
      sum(${signedAmount('i', sql`r.net_sum`)})::text as v
 from invoices i join invoice_rows r on r.company_id = i.company_id and r.invoice_id = i.id
where ${invoicesWhere(ctx, w)} and ${finalized} group by 1

-- revenueBy
r.person_id

-- revenueBy
r.product_id

-- revenueBy
r.net_sum

-- costBy
with pd as (
  select e.person_id, ${entryDay(w)} as day, sum(${SECS}) as secs ${entriesFrom(ctx, w)} group by 1, 2),
${agreementDays(ctx, w)},
${costCtes(key)}
select k, cost::text as v from cost

-- namesOf
concat_ws(' ', x.name, x.surname)

-- namesOf
x.name

-- namesOf
select x.id, ${name} as name from ${sql.table(table)} x
where ${tenant(ctx, 'x')} and x.id = any(${[...ids]}::int[])
