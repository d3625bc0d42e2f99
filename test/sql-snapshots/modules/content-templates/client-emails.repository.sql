-- src/modules/content-templates/client-emails.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- markMail
now()

-- markMail
now()
