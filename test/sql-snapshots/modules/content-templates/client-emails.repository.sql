-- src/modules/content-templates/client-emails.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- mailable
coalesce(btrim(co.email) ~ ${MAILABLE}, false)

-- contactsOf
btrim(co.email)

-- markMail
now()

-- markMail
now()
