-- src/modules/integrations/integrations.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- project
to_char(i.due_date, 'YYYY-MM-DD"T00:00:00.000Z"')
