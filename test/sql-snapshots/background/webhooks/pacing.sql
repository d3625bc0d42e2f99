-- src/background/webhooks/pacing.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- pace
clock_timestamp()

-- pace
update webhook_pacing
   set next_slot_at = greatest(next_slot_at, clock_timestamp()) + make_interval(secs => ${intervalSecs})
 where company_id = ${row.company_id}
   and greatest(next_slot_at, clock_timestamp())
       <= coalesce(${row.deferred_since}::timestamptz, clock_timestamp()) + make_interval(secs => ${config.maxDeferMs / 1000}::float8)
returning next_slot_at - make_interval(secs => ${intervalSecs}) as slot,
          next_slot_at - make_interval(secs => ${intervalSecs}) <= clock_timestamp() as due,
          coalesce(${row.deferred_since}::timestamptz, clock_timestamp()) as since

-- reserveMany
with cur as (
  select greatest(next_slot_at, clock_timestamp()) as base, clock_timestamp() as now from webhook_pacing where company_id = ${companyId} for update
), k as (
  select base, least(${n}::int, greatest(0, floor(extract(epoch from (now + make_interval(secs => ${config.maxDeferMs / 1000}::float8) - base)) / ${intervalSecs}::float8)::int + 1)) as count from cur
)
update webhook_pacing p set next_slot_at = k.base + make_interval(secs => ${intervalSecs}::float8 * k.count) from k
 where p.company_id = ${companyId}
returning k.base, k.count

-- deferBacklog
now()

-- deferBacklog
update webhook_deliveries d
  set slot_at = ${base}::timestamptz + make_interval(secs => ${1 / config.rate}::float8 * (v.ord - 1)),
      next_attempt_at = ${base}::timestamptz + make_interval(secs => ${1 / config.rate}::float8 * (v.ord - 1)),
      deferred_since = clock_timestamp(),
      claim_token = null
 from unnest(${ids}::bigint[]) with ordinality as v(id, ord)
where d.company_id = ${companyId} and d.id = v.id

-- takeSendTurn
insert into webhook_pacing (company_id, next_slot_at, last_sent_at) values (${companyId}, clock_timestamp(), clock_timestamp())
on conflict (company_id) do update set last_sent_at = clock_timestamp()
 where webhook_pacing.last_sent_at is null or webhook_pacing.last_sent_at <= clock_timestamp() - make_interval(secs => ${intervalSecs}::float8)
returning 1 as ok

-- takeSendTurn
select last_sent_at + make_interval(secs => ${intervalSecs}::float8) as at
from webhook_pacing where company_id = ${companyId}
