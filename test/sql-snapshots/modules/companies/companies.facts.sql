-- src/modules/companies/companies.facts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- companyCurrencySql
(select co.currency from companies co where co.id = ${companyId})

-- companyTodaySql
(select (now() at time zone co.timezone)::date from companies co where co.id = ${companyId})

-- companyFeatureSql
coalesce((select (co.features ->> ${sql.lit(feature)})::boolean from companies co where co.id = ${ctx.companyId}), false)
