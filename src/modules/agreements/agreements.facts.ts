import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { tenant } from '../../platform/tenant-table.ts';

// What the flextime balance reads of agreements inside its one statement, so that the table is named here.

/** A lateral walk over a window's days inside [start, end] (column references), one column (day). */
export type DayWalk = (start: string, end: string) => RawBuilder<unknown>;

/**
 * Per person among `ids` (an int[] expression) and day of the window: the seconds the agreement covering the
 * day expects (the latest-starting one wins when two overlap), weekly_hours / number of work_days on its ISO
 * work days, else 0. The rows of a CTE (person_id, day, seconds).
 */
export function agreementDaysSql(
  ctx: Ctx,
  window: { from: RawBuilder<unknown>; to: RawBuilder<unknown> },
  ids: RawBuilder<unknown>,
  days: DayWalk,
): RawBuilder<unknown> {
  return sql`select distinct on (a.person_id, d.day) a.person_id, d.day::date as day,
        case when extract(isodow from d.day)::int = any(a.work_days)
          then a.weekly_hours * 3600 / nullif(cardinality(a.work_days), 0) else 0 end as seconds
      from agreements a
      cross join lateral ${days('a.date_from', 'a.date_until')} as d(day)
      where ${tenant(ctx, 'a')} and a.person_id = any(${ids})
        and a.date_from <= ${window.to} and (a.date_until is null or a.date_until >= ${window.from})
      order by a.person_id, d.day, a.date_from desc, a.id desc`;
}
