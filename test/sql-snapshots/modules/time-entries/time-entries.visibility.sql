-- src/modules/time-entries/time-entries.visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- timeEntryVisible
true

-- timeEntryVisible
(${sql.ref(`${alias}.person_id`)} = ${ctx.actor.personId}
or ${idVisible(ctx, 'tasks', `${alias}.company_id`, `${alias}.task_id`)})
