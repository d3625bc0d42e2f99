-- src/modules/attachments/attachments.visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- attachmentVisible
true

-- attachmentVisible
(case ${sql.ref(`${alias}.related_type`)}
when 'task' then ${idVisible(ctx, 'tasks', company, related)}
when 'note' then ${idVisible(ctx, 'notes', company, related)}
else false end)
