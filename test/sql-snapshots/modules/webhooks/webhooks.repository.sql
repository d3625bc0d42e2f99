-- src/modules/webhooks/webhooks.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- STATUS
case when w.is_active then 'active' when w.disabled_at is null then 'paused' else 'disabled' end

-- softDeleteWebhook
now()

-- closePending
now()

-- projectDelivery
e.uuid::text

-- deliveryState
bool_or(d.state = 'pending')
