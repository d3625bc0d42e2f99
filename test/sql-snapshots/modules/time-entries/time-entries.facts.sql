-- src/modules/time-entries/time-entries.facts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- ofTask
te.company_id = ${sql.ref(`${alias}.company_id`)} and te.task_id = ${sql.ref(`${alias}.id`)} and te.deleted_at is null

-- trackedSecondsSql
(select coalesce(sum(case when te."end" is null then greatest(0, floor(extract(epoch from now() - te.start)))
  else coalesce(te.duration, floor(extract(epoch from te."end" - te.start))) end), 0)::bigint
from time_entries te where ${ofTask(alias)})

-- timeLoggedSql
exists (select 1 from time_entries te where ${ofTask(alias)})

-- closedSecondsByPersonSql
select e.person_id, sum(coalesce(e.duration, floor(extract(epoch from e."end" - e.start)))) as seconds
from time_entries e
where ${tenant(ctx, 'e')} and e.deleted_at is null and e."end" is not null and e.person_id = any(${ids})
  and e.start >= ${from} and e.start < ${until}
group by e.person_id
