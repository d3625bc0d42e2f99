-- src/modules/companies/companies.service.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- updateCompany
features || ${JSON.stringify(features)}::jsonb
