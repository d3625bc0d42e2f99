import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { tenant } from '../../platform/tenant-table.ts';
import { agreementDaysSql } from '../agreements/index.ts';
import { daysOffSql } from '../calendar/index.ts';
import { memberBalanceBasisSql, memberRows } from '../members/index.ts';
import { closedSecondsByPersonSql } from '../time-entries/index.ts';
import type { FlextimeBalanceParams, FlextimeBalanceRecord } from './flextime.schemas.ts';

export interface Window {
  from: string;
  to: string;
}

interface Figures {
  person_id: number;
  expected_seconds: number;
  worked_seconds: number;
  adjustments_seconds: number;
  opening_seconds: number;
}

/** Calendar entry types whose approved days reduce the expected time; `flextime` days off are taken from the balance. */
const DAYS_OFF_TYPES = ['vacation', 'sick_leave', 'time_off'];

/** The bound values every part of the balance query uses. */
interface Bounds {
  tz: string;
  from: RawBuilder<unknown>;
  to: RawBuilder<unknown>;
  ids: RawBuilder<unknown>;
}

/** The window's days inside [start, end] (an open end: to the window's end), as timestamps. */
const daysOf = (b: Bounds, start: string, end: string) =>
  sql`generate_series(greatest(${sql.ref(start)}, ${b.from})::timestamp, least(${sql.ref(end)}, ${b.to})::timestamp, interval '1 day')`;

/**
 * Expected time: per person and day, the agreement covering the day (agreements' rule) on a day that is not a
 * day off of the person (the calendar's: an approved vacation, sick leave or time off, a company holiday or a
 * global holiday). An approved `flextime` day is taken from the balance, so it still counts.
 */
const expectedCtes = (ctx: Ctx, b: Bounds) => sql`
    agreement_days as (${agreementDaysSql(ctx, b, b.ids, (start, end) => daysOf(b, start, end))}),
    days_off as (${daysOffSql(ctx, b, 'persons', DAYS_OFF_TYPES, (start, end) => daysOf(b, start, end))}),
    expected as (
      select ad.person_id, sum(ad.seconds) as seconds from agreement_days ad
      where not exists (select 1 from days_off o where o.person_id = ad.person_id and o.day = ad.day)
      group by ad.person_id
    )`;

/**
 * Worked time: closed entries starting in the window's local days (company time zone, so DST comes from the
 * database's zone data). Adjustments: flextime rows in the window.
 */
const workedCtes = (ctx: Ctx, b: Bounds) => sql`
    worked as (${closedSecondsByPersonSql(
      ctx,
      b.ids,
      sql`(${b.from}::timestamp at time zone ${b.tz})`,
      sql`((${b.to} + 1)::timestamp at time zone ${b.tz})`,
    )}), adjusted as (
      select f.person_id, sum(f.duration) as seconds from flextime_rows f
      where ${tenant(ctx, 'f')} and f.deleted_at is null and f.person_id = any(${b.ids})
        and f.date between ${b.from} and ${b.to}
      group by f.person_id
    )`;

/** Every figure of the balance for these persons in one statement, walking the window's days in SQL. */
async function figures(ctx: Ctx, personIds: number[], window: Window): Promise<Figures[]> {
  const b: Bounds = {
    tz: ctx.company.timezone,
    from: sql`${window.from}::date`,
    to: sql`${window.to}::date`,
    ids: sql`${personIds}::int[]`,
  };
  // One statement walks the days; each part names its company through tenant(ctx, alias).
  const result = await sql<Figures>`
    with persons as (${memberBalanceBasisSql(ctx, b.ids)}), ${expectedCtes(ctx, b)}, ${workedCtes(ctx, b)}
    select p.person_id,
      round(coalesce(x.seconds, 0))::bigint as expected_seconds,
      coalesce(w.seconds, 0)::bigint as worked_seconds,
      coalesce(j.seconds, 0)::bigint as adjustments_seconds,
      round(coalesce(p.flextime_credit, 0) * 3600)::bigint as opening_seconds
    from persons p
    left join expected x on x.person_id = p.person_id
    left join worked w on w.person_id = p.person_id
    left join adjusted j on j.person_id = p.person_id`.execute(ctx.db);
  return result.rows;
}

function toRecord(row: Figures, window: Window): FlextimeBalanceRecord {
  const balance = row.opening_seconds + row.worked_seconds + row.adjustments_seconds - row.expected_seconds;
  return {
    person_id: row.person_id,
    date_from: window.from,
    date_to: window.to,
    expected_seconds: row.expected_seconds,
    worked_seconds: row.worked_seconds,
    adjustments_seconds: row.adjustments_seconds,
    opening_seconds: row.opening_seconds,
    balance_seconds: balance,
    // Integer seconds / 36 is hundredths of an hour; rounding that integer cannot drift like a float sum.
    balance_hours: Math.round(balance / 36) / 100,
  };
}

/** A page of members (offset list, by person id), each with their balance over the window. */
export async function listBalances(ctx: Ctx, params: FlextimeBalanceParams, window: Window) {
  const page = await listPage<{ id: number }, FlextimeBalanceParams>(ctx, {
    listId: 'flextime_balance',
    params,
    options: { cursor: false },
    idColumn: 'm.person_id',
    project: (query: ReturnType<typeof memberRows>) => query.select('m.person_id as id'),
    base: (filters) => {
      const q = memberRows(ctx);
      return filters.person_id === undefined ? q : q.where('m.person_id', '=', filters.person_id);
    },
  });
  const ids = page.data.map((row) => row.id);
  const byPerson = new Map((ids.length ? await figures(ctx, ids, window) : []).map((f) => [f.person_id, f]));
  return { data: ids.map((id) => toRecord(byPerson.get(id)!, window)), meta: page.meta };
}
