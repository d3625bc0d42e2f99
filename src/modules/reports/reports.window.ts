import type { Ctx } from '../../platform/context.ts';
import { localToday } from '../../platform/dates.ts';
import { domainValidation } from '../../platform/errors.ts';

/** A report's window: local calendar days in the company time zone, both ends inclusive. */
export interface ReportWindow {
  from: string;
  to: string;
  timezone: string;
}

/** At most a year (a leap year's 366 days): the size the < 1 s budget was set for. */
export const MAX_WINDOW_DAYS = 366;

const DAY_MS = 86_400_000;
/** Days since 1970-01-01 (setUTCFullYear, because Date.UTC reads years below 100 as 19xx). */
function dayNumber(date: string): number {
  const d = new Date(0);
  d.setUTCFullYear(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));
  return d.getTime() / DAY_MS;
}

/**
 * The window of a report request. Defaults follow GET /missed-billing (the current calendar year in the company
 * time zone), so billing_gap and that report agree: date_from alone runs to the end of its year, date_to alone
 * starts on 1 January of its year. date_from after date_to, a year 0000 or more than a year: 400.
 */
export function resolveWindow(ctx: Ctx, query: { date_from?: string; date_to?: string }): ReportWindow {
  const timezone = ctx.company.timezone;
  const year = (query.date_from ?? query.date_to ?? localToday(timezone)).slice(0, 4);
  const from = query.date_from ?? `${(query.date_to ?? year).slice(0, 4)}-01-01`;
  const to = query.date_to ?? `${from.slice(0, 4)}-12-31`;
  for (const [field, value] of [
    ['date_from', from],
    ['date_to', to],
  ] as const)
    if (value < '0001-01-01')
      throw domainValidation('OUT_OF_RANGE', `${field} must be a day from 0001-01-01 on`, { field, value });
  if (from > to)
    throw domainValidation('INVALID_DATE_RANGE', 'date_from must not be after date_to', {
      field: 'date_to',
      date_from: from,
      date_to: to,
    });
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days > MAX_WINDOW_DAYS)
    throw domainValidation('RANGE_TOO_LONG', `A report covers at most ${MAX_WINDOW_DAYS} days`, {
      field: 'date_to',
      max_days: MAX_WINDOW_DAYS,
      days,
    });
  return { from, to, timezone };
}

/** Adds days to a YYYY-MM-DD date. */
export function plusDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}
