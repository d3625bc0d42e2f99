-- src/modules/notes/notes.visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- noteVisible
true

-- noteVisible
(case ${sql.ref(`${alias}.related_type`)}
when 'client' then ${idVisible(ctx, 'clients', company, related)}
when 'project' then ${idVisible(ctx, 'projects', company, related)}
else true end)
