-- src/modules/billing-settings/billing-settings.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- readStored
coalesce((c.features ->> 'billing')::boolean, false)

-- readStored
coalesce(b.invoice_number_format, ${DEFAULTS.invoice_number_format})

-- readStored
coalesce(b.payment_term_days, ${DEFAULTS.payment_term_days})

-- readStored
coalesce(b.default_locale_code, ${DEFAULTS.default_locale_code})

-- readStored
case when b.company_id is null then ${isoz('c.updated_at')} else ${isoz('b.updated_at')} end

-- upsertSettings
greatest(date_trunc('milliseconds', clock_timestamp()), billing_settings.updated_at + interval '1 millisecond')
