-- src/modules/calendar/calendar.visibility.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- calendarVisible
true

-- calendarVisible
(${person} = ${ctx.actor.personId} or ${person} is null)
