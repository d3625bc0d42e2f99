-- src/background/webhooks/legacy.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- claim
update legacy_webhook_deliveries d
   set claim_token = gen_random_uuid(),
       next_attempt_at = clock_timestamp() + make_interval(secs => ${lease / 1000}::float8)
  from (select company_id, id from legacy_webhook_deliveries where next_attempt_at <= now()
         order by next_attempt_at, id limit 1 for update skip locked) pick,
       legacy_webhook_subscriptions s
 where d.company_id = pick.company_id and d.id = pick.id
   and s.company_id = d.company_id and s.id = d.subscription_id
returning d.company_id, d.id, d.subscription_id, d.body, d.attempt, d.claim_token, s.url, s.webhook

-- settle
company_id = ${row.company_id} and id = ${row.id} and claim_token = ${row.claim_token}

-- settle
update legacy_webhook_deliveries set claim_token = null, next_attempt_at = now() where ${held}

-- settle
delete from legacy_webhook_deliveries where ${held}

-- settle
update legacy_webhook_deliveries
  set attempt = attempt + 1, claim_token = null,
      next_attempt_at = clock_timestamp() + make_interval(secs => ${delay / 1000}::float8)
where ${held}
