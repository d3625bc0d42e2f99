import type { Ctx } from '../../platform/context.ts';
import { localToday } from '../../platform/dates.ts';
import { calendarWindow } from '../../platform/date-window.ts';

export { MAX_WINDOW_DAYS, plusDays } from '../../platform/date-window.ts';

/** A report's window: local calendar days in the company time zone, both ends inclusive. */
export interface ReportWindow {
  from: string;
  to: string;
  timezone: string;
}

/**
 * The window of a report request, by the rule GET /missed-billing follows too (src/platform/date-window.ts), so
 * billing_gap and that report agree: the current calendar year in the company time zone by default, date_from
 * alone to the end of its year, date_to alone from 1 January of its year; reversed, year 0000 or over a year: 400.
 */
export function resolveWindow(ctx: Ctx, query: { date_from?: string; date_to?: string }): ReportWindow {
  const timezone = ctx.company.timezone;
  return { ...calendarWindow(query, localToday(timezone)), timezone };
}
