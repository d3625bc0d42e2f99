import type { DataOf, operations } from '@service-api/sdk/browser';
import type { MessageKey } from '../../i18n/i18n.tsx';

export type Entry = DataOf<operations['getCalendarEntry']>;
export type EntryType = 'vacation' | 'flextime' | 'sick_leave' | 'time_off' | 'holiday';
export const REQUEST_TYPES: EntryType[] = ['vacation', 'flextime', 'sick_leave', 'time_off'];
/** The types a manager approves in the web application (the API refuses it to keys: CALENDAR_APPROVAL_UI_ONLY). */
export const APPROVED_IN_WEB = new Set<string>(['vacation', 'flextime']);

export const TYPE_LABEL: Record<EntryType, MessageKey> = {
  vacation: 'calendar.typeVacation',
  flextime: 'calendar.typeFlextime',
  sick_leave: 'calendar.typeSickLeave',
  time_off: 'calendar.typeTimeOff',
  holiday: 'calendar.typeHoliday',
};
export const STATUS_LABEL: Record<string, MessageKey> = {
  in_review: 'calendar.statusInReview',
  approved: 'calendar.statusApproved',
  rejected: 'calendar.statusRejected',
};
export const STATUS_TONE: Record<string, 'accent' | 'success' | 'danger'> = {
  in_review: 'accent',
  approved: 'success',
  rejected: 'danger',
};

/** Days from date_from to date_until, both included (dates as YYYY-MM-DD, counted in UTC to dodge DST). */
export function dayCount(from: string, until: string): number {
  return Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The first and last day of the month of `anchor` (YYYY-MM), as the API's dates. */
export function monthRange(anchor: string): { from: string; until: string } {
  const [year, month] = anchor.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const mm = String(month).padStart(2, '0');
  return { from: `${year}-${mm}-01`, until: `${year}-${mm}-${String(last).padStart(2, '0')}` };
}

export function shiftMonth(anchor: string, by: number): string {
  const [year, month] = anchor.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, month - 1 + by, 1));
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}
