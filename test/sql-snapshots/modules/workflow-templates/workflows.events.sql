-- src/modules/workflow-templates/workflows.events.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- taskEvents
'{}'::int[]

-- taskEvents
0
