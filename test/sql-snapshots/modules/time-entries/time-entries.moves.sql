-- src/modules/time-entries/time-entries.moves.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- lockEntriesToMove
coalesce(e.duration, floor(extract(epoch from e."end" - e.start)), 0)::int

-- lockEntriesToMove
e.deleted_at is null

-- lockEntriesToMove
any(${[...ids]}::int[])

-- moveEntries
any(${[...ids]}::int[])
