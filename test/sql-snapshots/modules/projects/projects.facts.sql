-- src/modules/projects/projects.facts.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- nextProjectIdSql
nextval(pg_get_serial_sequence('projects', 'id'))::int

-- insertProjectsSql
insert into projects (company_id, id, name, project_type_id, client_id)
select ${companyValue(ctx)}, pid, ${project.name}, ${project.project_type_id}, client_id from ${sql.table(source)}
