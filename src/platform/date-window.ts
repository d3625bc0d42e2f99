import { domainValidation } from './errors.ts';

/**
 * A window of local calendar days (YYYY-MM-DD, both ends inclusive) asked for by a report or a billing run: one
 * rule for its defaults and its bounds (decisions 0026, 0046), so that every window a request can name is at most
 * a year. Work that grows with the window (a fee period per month of every open-ended contract, a scan of the
 * time entries) is then bounded by the data of one year, not by the calendar from 0001 to 9999.
 */
export interface DateWindow {
  from: string;
  to: string;
}

/** At most a year (a leap year's 366 days). */
export const MAX_WINDOW_DAYS = 366;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 (setUTCFullYear, because Date.UTC reads years below 100 as 19xx). */
export function dayNumber(date: string): number {
  const d = new Date(0);
  d.setUTCFullYear(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));
  return d.getTime() / DAY_MS;
}

/** Adds days to a YYYY-MM-DD date (years below 100 too). */
export function plusDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** 400 VALIDATION_ERROR unless from..to is a window: from 0001-01-01 on, not reversed, at most MAX_WINDOW_DAYS. */
export function assertWindow(w: DateWindow): void {
  for (const [field, value] of [
    ['date_from', w.from],
    ['date_to', w.to],
  ] as const)
    if (value < '0001-01-01')
      throw domainValidation('OUT_OF_RANGE', `${field} must be a day from 0001-01-01 on`, { field, value });
  if (w.from > w.to)
    throw domainValidation('INVALID_DATE_RANGE', 'date_from must not be after date_to', {
      field: 'date_to',
      date_from: w.from,
      date_to: w.to,
    });
  const days = dayNumber(w.to) - dayNumber(w.from) + 1;
  if (days > MAX_WINDOW_DAYS)
    throw domainValidation('RANGE_TOO_LONG', `A window covers at most ${MAX_WINDOW_DAYS} days; this one has ${days}`, {
      field: 'date_to',
      max_days: MAX_WINDOW_DAYS,
      days,
    });
}

/**
 * The window of date_from/date_to, each optional: nothing sent is the calendar year of `today`; date_from alone
 * runs to the end of its year, date_to alone starts on 1 January of its year. Then checked by assertWindow.
 */
export function calendarWindow(query: { date_from?: string; date_to?: string }, today: string): DateWindow {
  const year = (query.date_from ?? query.date_to ?? today).slice(0, 4);
  const w = { from: query.date_from ?? `${year}-01-01`, to: query.date_to ?? `${year}-12-31` };
  assertWindow(w);
  return w;
}
