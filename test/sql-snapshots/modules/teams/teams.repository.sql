-- src/modules/teams/teams.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- project
coalesce((select array_agg(tm.person_id order by tm.person_id) from team_members tm
where tm.company_id = t.company_id and tm.team_id = t.id), '{}')
