/**
 * Invoice periods are calendar aligned: a month, a quarter (Jan, Apr, Jul, Oct), a half year (Jan, Jul) or a
 * year. A period's invoice day is the contract's invoice_day in the month after the period ends (the month's last
 * day when it is shorter). Dates are YYYY-MM-DD strings, computed in UTC so no time zone can shift them.
 */
import { addDays } from '../../platform/dates.ts';

const MONTHS: Record<string, number> = { month: 1, quarter: 3, half_year: 6, year: 12 };

/** Every kind of invoice period a contract can have. */
export const PERIOD_KINDS = Object.keys(MONTHS);

export interface Period {
  from: string;
  until: string;
}

const iso = (date: Date) => date.toISOString().slice(0, 10);
const utc = (year: number, monthIndex: number, day = 1) => new Date(Date.UTC(year, monthIndex, day));

export const monthsOf = (invoicePeriod: string) => MONTHS[invoicePeriod] ?? 1;

/** The period of this kind that contains the day. */
export function periodOf(day: string, invoicePeriod: string): Period {
  const months = monthsOf(invoicePeriod);
  const [year, month] = [Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1];
  const first = month - (month % months);
  return { from: iso(utc(year, first)), until: iso(utc(year, first + months, 0)) };
}

/** The day a period is invoiced: invoice_day of the following month, clamped to that month's length. */
export function invoiceDayOf(period: Period, invoiceDay: number): string {
  const next = new Date(`${addDays(period.until, 1)}T00:00:00Z`);
  const last = utc(next.getUTCFullYear(), next.getUTCMonth() + 1, 0).getUTCDate();
  return iso(utc(next.getUTCFullYear(), next.getUTCMonth(), Math.min(Math.max(invoiceDay, 1), last)));
}

/** The default period to bill today: the latest period whose invoice day has come. */
export function duePeriod(today: string, invoicePeriod: string, invoiceDay: number): Period {
  let period = periodOf(addDays(periodOf(today, invoicePeriod).from, -1), invoicePeriod);
  if (invoiceDayOf(period, invoiceDay) > today) period = periodOf(addDays(period.from, -1), invoicePeriod);
  return period;
}

/** A short label printed on the invoice: 2026-10, 2026-Q4, 2026-H2, 2026, or the two dates of a free range. */
export function periodLabel(period: Period, invoicePeriod: string | null): string {
  const year = period.from.slice(0, 4);
  const month = Number(period.from.slice(5, 7));
  if (invoicePeriod === null) return `${period.from} – ${period.until}`;
  if (invoicePeriod === 'quarter') return `${year}-Q${Math.ceil(month / 3)}`;
  if (invoicePeriod === 'half_year') return `${year}-H${month > 6 ? 2 : 1}`;
  if (invoicePeriod === 'year') return year;
  return period.from.slice(0, 7);
}
