-- src/background/webhooks/claim.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- candidates
with recursive companies(company_id) as (
  (select company_id from webhook_deliveries where state = 'pending' order by company_id limit 1)
  union all
  select (select d.company_id from webhook_deliveries d
           where d.state = 'pending' and d.company_id > c.company_id order by d.company_id limit 1)
    from companies c where c.company_id is not null
)
select c.company_id
  from companies c
  left join webhook_pacing turn on turn.company_id = c.company_id
  cross join lateral (
    select d.next_attempt_at, d.id from webhook_deliveries d
     where d.company_id = c.company_id and d.state = 'pending' and d.next_attempt_at <= now()
     order by d.next_attempt_at, d.id limit 1) head
 order by (select count(*) from webhook_deliveries f
            where f.company_id = c.company_id and f.claim_token is not null
              and f.state = 'pending' and f.next_attempt_at > now()),
          turn.last_claimed_at nulls first, head.next_attempt_at, head.id
 limit ${CANDIDATES}

-- claimOf
with claimed as (
update webhook_deliveries d
   set claim_token = gen_random_uuid(),
       next_attempt_at = clock_timestamp() + make_interval(secs => ${lease / 1000}::float8)
  from (select company_id, id from webhook_deliveries
         where company_id = ${companyId} and state = 'pending' and next_attempt_at <= now()
         order by next_attempt_at, id limit 1
         for update skip locked) pick
 where d.company_id = pick.company_id and d.id = pick.id
returning d.company_id, d.id, d.webhook_id, d.event_id, d.attempt, d.slot_at, d.deferred_since, d.claim_token
), turn as (
  insert into webhook_pacing (company_id, next_slot_at, last_claimed_at)
  select company_id, clock_timestamp(), clock_timestamp() from claimed
  on conflict (company_id) do update set last_claimed_at = excluded.last_claimed_at
)
select * from claimed

-- nextDue
select (extract(epoch from min(next_attempt_at) - clock_timestamp()) * 1000)::float8 as ms
from webhook_deliveries where state = 'pending' and next_attempt_at > now()

-- release
now()
