-- src/background/webhooks/mailer.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- flushMail
now()

-- flushMail
now()

-- flushMail
now()
