import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { tenant } from '../../platform/tenant-table.ts';

// What the flextime balance reads of the calendar inside its one statement, so that its tables are named here.

/**
 * The days off of the window per person of the CTE `persons` (person_id, country): company holidays, the
 * person's approved entries of the given types, and global holidays (country-less or of the person's country).
 * The rows of a CTE (person_id, day); `days` walks the window's days inside an entry's [date_from, date_until].
 */
export function daysOffSql(
  ctx: Ctx,
  window: { from: RawBuilder<unknown>; to: RawBuilder<unknown> },
  persons: string,
  types: readonly string[],
  days: (start: string, end: string) => RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`select p.person_id, d.day::date as day
      from calendar_entries ce
      join ${sql.table(persons)} p on ce.person_id = p.person_id or (ce.person_id is null and ce.type = 'holiday')
      cross join lateral ${days('ce.date_from', 'ce.date_until')} as d(day)
      where ${tenant(ctx, 'ce')} and ce.deleted_at is null and ce.date_from <= ${window.to} and ce.date_until >= ${window.from}
        and (ce.type = 'holiday' or (ce.status = 'approved' and ce.type = any(${[...types]}::text[])))
      union
      select p.person_id, g.date
      from global_holidays g join ${sql.table(persons)} p on g.country_code is null or lower(g.country_code) = lower(p.country)
      where g.date between ${window.from} and ${window.to}`;
}
