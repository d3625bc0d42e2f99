-- src/modules/time-entries/time-entries.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- instant
(${value.text}::timestamp at time zone ${ctx.company.timezone})

-- instant
${value.text}::timestamptz

-- applyFilters
te.start >= ${instant(ctx, filters.start_from)}

-- applyFilters
te.start <= ${instant(ctx, filters.start_to)}

-- findEntries
any(${[...ids]}::int[])

-- span
tstzrange(${sql.ref(`${alias}.start`)}, coalesce(${sql.ref(`${alias}.end`)}, 'infinity'), '[)')

-- findEntriesWithOverlaps
any(${[...ids]}::int[])

-- findEntriesWithOverlaps
array(select o.id from time_entries o
where o.company_id = te.company_id and o.person_id = te.person_id and o.deleted_at is null and o.id <> te.id
  and ${span('o')} && ${span('te')} order by o.id)

-- checkInputs
(select p.task_id, v.at, p.n from unnest(${probes.map((p) => p.task_id)}::int[],
  ${probes.map((p) => p.start + 1)}::int[], ${probes.map((p) => p.index + 1)}::int[]) as p(task_id, k, n)
join instants v on v.i = p.k)

-- checkInputs
with usable as (
  select t.id from tasks t
  where ${tenant(ctx, 't')} and t.id = any(${[...ids.tasks]}::int[]) and t.deleted_at is null
    and t.template_kind is null and ${rowVisible(ctx, 'tasks', 't')}
  for share),
instants as (
  select u.i, date_trunc('milliseconds', case when u.naive then u.txt::timestamp at time zone ${ctx.company.timezone}
      else u.txt::timestamptz end) as at
  from unnest(${values.map((v) => v.text)}::text[], ${values.map((v) => v.naive)}::boolean[]) with ordinality as u(txt, naive, i))
select array(select at::text from instants order by i) as instants,
  array(select id from usable) as tasks,
  array(${memberPersonIdsSql(ctx, ids.people)}) as people,
  (select coalesce(json_object_agg(te.person_id, te.id), '{}') from time_entries te
    where ${tenant(ctx, 'te')} and te.person_id = any(${[...ids.timerPeople]}::int[]) and te."end" is null
      and te.deleted_at is null) as running,
  (select coalesce(json_agg(l), '[]') from (${lockedPeriodsQuery(ctx, probed)}) l) as locks

-- runningEntries
any(${[...personIds]}::int[])

-- span
tstzrange(${sql.ref(`${alias}.start`)}, coalesce(${sql.ref(`${alias}.end`)}, 'infinity'), '[)')

-- insertEntriesWithOverlaps
array(select o.id from time_entries o
  where o.company_id = te.company_id and o.person_id = te.person_id and o.deleted_at is null
    and ${span('o')} && ${span('te')}
union all select n.id from new_entries n
  where n.person_id = te.person_id and n.id <> te.id and ${span('n')} && ${span('te')}
order by 1)
