-- src/modules/project-types/project-types.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- projectTypeNameSql
(select pt.name from project_types pt where ${tenant(ctx, 'pt')} and pt.id = ${id})
