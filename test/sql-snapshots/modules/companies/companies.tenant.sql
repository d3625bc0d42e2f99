-- src/modules/companies/companies.tenant.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- activateFeature
features || jsonb_build_object(${key}::text, true)

-- updateBillingFields
features || jsonb_build_object('billing', ${fields.billing_active}::boolean)

-- updateBillingFields
greatest(date_trunc('milliseconds', clock_timestamp()), companies.updated_at + interval '1 millisecond')
