-- src/modules/legacy-webhooks/legacy-webhooks.events.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- recordLegacyEvents
insert into legacy_webhook_deliveries (company_id, subscription_id, body)
select s.company_id, s.id, ${JSON.stringify(record)} from legacy_webhook_subscriptions s
 where s.company_id = ${ctx.companyId} and s.webhook = ${event}
