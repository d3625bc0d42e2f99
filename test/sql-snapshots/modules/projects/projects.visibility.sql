-- src/modules/projects/projects.visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- projectVisible
true

-- projectVisible
(${sql.ref(`${alias}.manager_id`)} = ${ctx.actor.personId}
or (${sql.ref(`${alias}.client_id`)} is not null and ${idVisible(ctx, 'clients', `${alias}.company_id`, `${alias}.client_id`)}))
