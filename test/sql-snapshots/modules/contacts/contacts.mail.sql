-- src/modules/contacts/contacts.mail.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- mailable
coalesce(btrim(co.email) ~ ${MAILABLE}, false)

-- mailContacts
btrim(co.email)
