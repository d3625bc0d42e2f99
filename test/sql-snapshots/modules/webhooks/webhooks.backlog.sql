-- src/modules/webhooks/webhooks.backlog.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- deliveryBacklog
select
(select count(*) from (select 1 from webhook_deliveries
  where state = 'pending' and next_attempt_at <= now() and claim_token is null limit ${BACKLOG_CAP}) d)::int as due,
(select count(*) from (select 1 from webhook_deliveries
  where claim_token is not null limit ${BACKLOG_CAP}) f)::int as in_flight,
(select count(*) from (select 1 from webhook_deliveries
  where state = 'pending' and next_attempt_at > now() limit ${BACKLOG_CAP}) s)::int as scheduled,
coalesce((select extract(epoch from now() - min(next_attempt_at)) from webhook_deliveries
  where state = 'pending' and next_attempt_at <= now() and claim_token is null), 0)::float8 as lag_seconds
