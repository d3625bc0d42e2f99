import { AppError, domainValidation } from '../../platform/errors.ts';
import type { TimeEntryCreateBody } from './time-entries.schemas.ts';

/** A date-time as sent: its text, and whether it lacks an offset (then it is company-local wall-clock time). */
export interface DateTimeInput {
  text: string;
  naive: boolean;
}

const PARTS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|z|[+-](\d{2}):?(\d{2}))?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The schema pattern admits shapes; this admits only real calendar values, or answers null. */
export function parseDateTime(text: string): DateTimeInput | null {
  const m = PARTS.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (m[8] !== undefined && (Number(m[8]) > 15 || Number(m[9]) > 59)) return null;
  return { text, naive: m[7] === undefined };
}

export function requireDateTime(field: string, text: string): DateTimeInput {
  const parsed = parseDateTime(text);
  if (!parsed)
    throw domainValidation('INVALID_DATE_TIME', `${field} is not a valid date-time: ${text}`, { field, value: text });
  return parsed;
}

export const secondsBetween = (start: string, end: string): number =>
  Math.round((Date.parse(end) - Date.parse(start)) / 1000);
const plusSeconds = (start: string, seconds: number): string =>
  new Date(Date.parse(start) + seconds * 1000).toISOString();

export interface Timing {
  start: string;
  end: string | null;
  duration: number | null;
}

function assertRange(timing: Timing): Timing {
  if (timing.end !== null && Date.parse(timing.end) < Date.parse(timing.start)) {
    throw domainValidation('INVALID_DATE_RANGE', 'end must not be before start', {
      field: 'end',
      start: timing.start,
      end: timing.end,
    });
  }
  return timing;
}

/**
 * Create: no end and no duration is a running entry; a duration without end closes it at
 * start + duration; an end without duration derives the duration. Both sent: both kept as sent.
 */
export function timingForCreate(start: string, end: string | null, duration: number | undefined): Timing {
  if (end === null)
    return duration === undefined
      ? { start, end: null, duration: null }
      : { start, end: plusSeconds(start, duration), duration };
  return assertRange({ start, end, duration: duration ?? secondsBetween(start, end) });
}

/**
 * Update: a duration sent alone never derives an end (a running entry stays running, a closed one
 * keeps its end). Moving start or end without a duration re-derives it from the new times.
 */
export function timingForUpdate(
  current: Timing,
  change: { start?: string; end?: string | null; duration?: number },
): Timing {
  const start = change.start ?? current.start;
  const end = change.end !== undefined ? change.end : current.end;
  if (change.duration !== undefined) return assertRange({ start, end, duration: change.duration });
  const moved = change.end !== undefined || (change.start !== undefined && end !== null);
  if (!moved) return assertRange({ start, end, duration: current.duration });
  return assertRange({ start, end, duration: end === null ? null : secondsBetween(start, end) });
}

/** In a bulk request every refusal names the entry it is about. */
export function atIndex(error: unknown, index: number): unknown {
  if (!(error instanceof AppError)) return error;
  return new AppError(error.code, `entries[${index}]: ${error.message}`, { ...error.details, index }, error.headers);
}

/** A create's timing, or the refusal to report when its entry's turn comes. */
export type Outcome = { timing: Timing } | { error: unknown };

export type Parsed = { start: DateTimeInput; end: DateTimeInput | null } | { error: unknown };

/** Each body's start/end read as date-times; a refusal is kept, not thrown, so the first refused entry in request order wins. */
export function parseTimes(bodies: ReadonlyArray<Pick<TimeEntryCreateBody, 'start' | 'end'>>): Parsed[] {
  return bodies.map((body): Parsed => {
    try {
      return {
        start: requireDateTime('start', body.start),
        end: body.end == null ? null : requireDateTime('end', body.end),
      };
    } catch (error) {
      return { error };
    }
  });
}

/** Each body's timing from the instants its start/end resolved to (in the order parseTimes lists them). */
export function timingsOf(
  bodies: ReadonlyArray<Pick<TimeEntryCreateBody, 'duration'>>,
  parsed: Parsed[],
  instants: string[],
): Outcome[] {
  let next = 0;
  return parsed.map((p, i): Outcome => {
    if ('error' in p) return p;
    const start = instants[next++]!;
    const end = p.end ? instants[next++]! : null;
    try {
      return { timing: timingForCreate(start, end, bodies[i]!.duration) };
    } catch (error) {
      return { error };
    }
  });
}
