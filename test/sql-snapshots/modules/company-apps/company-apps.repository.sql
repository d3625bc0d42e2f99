-- src/modules/company-apps/company-apps.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- project
coalesce((select (co.features ->> a.key)::boolean from companies co where co.id = a.company_id), false)
