-- src/modules/contracts/contracts.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- project
${DEFAULTS}::jsonb || k.settings

-- project
(select coalesce(json_agg(x.row order by x.id), '[]'::json) from (
select r.id, ${ROW_JSON} as row from contract_rows r where r.company_id = k.company_id and r.contract_id = k.id
order by r.id limit ${ROWS_INLINE_CAP + 1}) x)

-- endContracts
case when status = 'active' and ${dateUntil}::date <= ${today}::date then 'finished' else status end

-- finishEndedContracts
update contracts k set status = 'finished', updated_at = ${nextStamp('k.updated_at')}
where k.status = 'active' and k.deleted_at is null
and k.date_until is not null and k.date_until <= ${companyTodaySql(sql.ref('k.company_id'))}
