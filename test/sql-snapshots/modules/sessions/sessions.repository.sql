-- src/modules/sessions/sessions.repository.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- ms
make_interval(secs => ${value / 1000})

-- now
date_trunc('milliseconds', now())

-- accountColumns
exists (select 1 from members m where m.account_id = a.id and m.status = 'active')

-- findAccountByEmail
lower(a.email)

-- insertSession
${now} + ${ms(values.absoluteMs)}

-- insertSession
least(${now} + ${ms(values.idleMs)}, ${absolute})

-- endSession
idle_expires_at > now() and absolute_expires_at > now()

-- liveSessions
id = ${current}

-- liveSessions
idle_expires_at > now() and absolute_expires_at > now()

-- activeCompanies
m.role

-- activeCompanies
m.status
