import rrulePkg from 'rrule';
import { domainValidation } from '../../platform/errors.ts';

const { RRule } = rrulePkg;

/** The stored (and returned) recurrence_rule: an RFC 5545 RRULE body and the series start instant. */
export interface RecurrenceRule {
  rrule: string;
  dtstart: string;
}

export interface Occurrence {
  /** The occurrence instant (UTC ISO). */
  date: string;
  /** Its calendar day in the company timezone. */
  recurrence_date: string;
}

/** Occurrences are materialised this far ahead of the later of now and the series start... */
export const HORIZON_DAYS = 30;
/** ...and never more than this many per master. */
export const MAX_OCCURRENCES = 50;
/** A series may start at most this many years before or after now (bounds the work of expanding it). */
const DTSTART_RANGE_YEARS = 10;
/** A rule must produce its first occurrence within this many years of its start. */
const FIRST_OCCURRENCE_YEARS = 100;
/** rrule stops walking at the end of this year when a rule matches no day. */
const RRULE_LAST_YEAR = 9999;
/** The Gregorian calendar repeats exactly every 400 years: 146 097 days, a whole number of weeks. */
const CALENDAR_CYCLE_YEARS = 400;

const invalid = (message: string) => domainValidation('INVALID_RECURRENCE_RULE', message, { field: 'recurrence_rule' });

const WEEKDAY = '(MO|TU|WE|TH|FR|SA|SU)';
const list = (item: string) => new RegExp(`^${item}(,${item})*$`);
const DAY_OF_MONTH = '(-?([1-9]|[12][0-9]|3[01]))';
const ORDINAL_WEEKDAY = `([+-]?([1-9]|[1-4][0-9]|5[0-3])?${WEEKDAY})`;

/**
 * The supported subset of RRULE, per part: what a task schedule needs, and nothing whose expansion can
 * search for centuries without finding a day (rrule walks to year 9999 when a rule never matches).
 */
const PARTS: Record<string, { pattern: RegExp; freqs: readonly string[] }> = {
  FREQ: { pattern: /^(YEARLY|MONTHLY|WEEKLY|DAILY)$/, freqs: ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] },
  INTERVAL: { pattern: /^([1-9][0-9]?)$/, freqs: ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] },
  COUNT: { pattern: /^([1-9][0-9]{0,3})$/, freqs: ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] },
  UNTIL: { pattern: /^\d{8}(T\d{6}Z?)?$/, freqs: ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] },
  BYDAY: { pattern: list(ORDINAL_WEEKDAY), freqs: ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] },
  BYMONTHDAY: { pattern: list(DAY_OF_MONTH), freqs: ['YEARLY', 'MONTHLY'] },
  BYMONTH: { pattern: list('([1-9]|1[0-2])'), freqs: ['YEARLY'] },
  // One value each: at most one occurrence per day, so the local day identifies an occurrence.
  BYHOUR: { pattern: /^([0-9]|1[0-9]|2[0-3])$/, freqs: ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] },
  BYMINUTE: { pattern: /^([0-9]|[1-5][0-9])$/, freqs: ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] },
  BYSECOND: { pattern: /^([0-9]|[1-5][0-9])$/, freqs: ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] },
  WKST: { pattern: new RegExp(`^${WEEKDAY}$`), freqs: ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] },
};

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function splitParts(text: string): Map<string, string> {
  const body = text
    .trim()
    .replace(/^RRULE:/i, '')
    .toUpperCase();
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    const match = /^([A-Z]+)=(.+)$/.exec(part);
    if (!match) throw invalid(`"${part}" is not a NAME=VALUE part of an RRULE`);
    const [, name, value] = match as unknown as [string, string, string];
    if (!PARTS[name])
      throw invalid(
        `${name} is not supported; use FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYHOUR, BYMINUTE, BYSECOND, WKST`,
      );
    if (parts.has(name)) throw invalid(`${name} appears twice`);
    parts.set(name, value);
  }
  return parts;
}

/** Combinations the patterns alone let through but that could never (or not always) produce a day. */
function checkCombinations(parts: Map<string, string>, freq: string): void {
  if (parts.has('COUNT') && parts.has('UNTIL')) throw invalid('COUNT and UNTIL cannot both be given');
  const byday = parts.get('BYDAY');
  const ordinal = byday !== undefined && /[0-9]/.test(byday);
  if (ordinal && (freq === 'DAILY' || freq === 'WEEKLY'))
    throw invalid('numbered BYDAY values (e.g. 1MO) need FREQ=MONTHLY or YEARLY');
  if (ordinal && freq === 'MONTHLY' && /(^|,)[+-]?([6-9]|[1-5][0-9])[A-Z]/.test(byday))
    throw invalid('a monthly BYDAY number must be 1-5 or -1 to -5');
  if (ordinal && parts.has('BYMONTHDAY')) throw invalid('numbered BYDAY values cannot be combined with BYMONTHDAY');
  // DAILY;INTERVAL=7;BYDAY=TU from a Monday would never match.
  if (freq === 'DAILY' && byday !== undefined && parts.has('INTERVAL') && parts.get('INTERVAL') !== '1')
    throw invalid('BYDAY with FREQ=DAILY needs INTERVAL=1; use FREQ=WEEKLY');
  const months = parts.get('BYMONTH')?.split(',').map(Number);
  const days = parts.get('BYMONTHDAY')?.split(',').map(Number);
  if (months && days && !months.some((m) => days.some((d) => Math.abs(d) <= DAYS_IN_MONTH[m - 1]!))) {
    throw invalid('no BYMONTHDAY value exists in any BYMONTH month');
  }
}

/** Validates the RRULE text strictly and returns it normalised (upper case, no RRULE: prefix). */
export function normaliseRrule(text: string): string {
  if (/[\r\n]/.test(text)) throw invalid('send a single RRULE line; DTSTART goes in recurrence_rule.dtstart');
  const parts = splitParts(text);
  const freq = parts.get('FREQ');
  if (!freq) throw invalid('FREQ is required');
  for (const [name, value] of parts) {
    const spec = PARTS[name]!;
    if (!spec.pattern.test(value)) throw invalid(`${name}=${value} is not a valid value`);
    if (!spec.freqs.includes(freq)) throw invalid(`${name} is not supported with FREQ=${freq}`);
  }
  checkCombinations(parts, freq);
  const normalised = [...parts].map(([name, value]) => `${name}=${value}`).join(';');
  try {
    RRule.parseString(normalised);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  return normalised;
}

const yearsLater = (date: Date, years: number) => {
  const later = new Date(date);
  later.setUTCFullYear(later.getUTCFullYear() + years);
  return later;
};

/**
 * The rule's first occurrence (wall clock, COUNT and UNTIL aside), or null when there is none for at least
 * FIRST_OCCURRENCE_YEARS. rrule walks period by period until a day matches or the year 9999 ends, so a rule
 * that never matches (BYMONTH=2;BYDAY=53MO) costs a walk of ~8000 years, 75-220 ms of blocked event loop.
 * Moving the start forward by whole 400-year cycles changes nothing the rule can see (weekdays, leap years,
 * the phase of INTERVAL) but brings the year-9999 stop within 100-500 years of it: a bounded search.
 */
function firstOccurrence(rrule: string, wallStart: Date): Date | null {
  const year = wallStart.getUTCFullYear();
  const shift =
    Math.max(0, Math.floor((RRULE_LAST_YEAR - FIRST_OCCURRENCE_YEARS - year) / CALENDAR_CYCLE_YEARS)) *
    CALENDAR_CYCLE_YEARS;
  const start = yearsLater(wallStart, shift);
  const options = { ...RRule.parseString(rrule), dtstart: start, count: null, until: null };
  const first = new RRule(options).after(start, true);
  return first && yearsLater(first, -shift);
}

/** A rule that can never produce an occurrence is refused: it would only cost a search on every expansion. */
function checkOccurs(rrule: string, wallStart: Date): void {
  const first = firstOccurrence(rrule, wallStart);
  const until = RRule.parseString(rrule).until;
  if (first && first <= yearsLater(wallStart, FIRST_OCCURRENCE_YEARS) && !(until && first > until)) return;
  throw invalid(`the rule has no occurrence within ${FIRST_OCCURRENCE_YEARS} years of dtstart`);
}

/** Validates a recurrence_rule input; dtstart defaults to `fallbackStart` (the task's date, or now). */
export function normaliseRule(
  input: { rrule: string; dtstart?: string },
  fallbackStart: string,
  now: Date,
  timeZone: string,
): RecurrenceRule {
  const rrule = normaliseRrule(input.rrule);
  const start = new Date(input.dtstart ?? fallbackStart);
  start.setUTCMilliseconds(0);
  const years = Math.abs(start.getTime() - now.getTime()) / (365.25 * 86_400_000);
  if (years > DTSTART_RANGE_YEARS) throw invalid(`dtstart must lie within ${DTSTART_RANGE_YEARS} years of now`);
  checkOccurs(rrule, toWall(start, timeZone));
  return { rrule, dtstart: start.toISOString() };
}

/** The wall-clock reading of an instant in a zone, as a Date whose UTC fields carry it ("floating" time). */
function toWall(instant: Date, timeZone: string): Date {
  const fields: Record<string, number> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  for (const part of format.formatToParts(instant)) if (part.type !== 'literal') fields[part.type] = Number(part.value);
  return new Date(Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!));
}

/** The instant at which the zone's clocks read `wall`; a time skipped by a DST jump lands just after it. */
function fromWall(wall: Date, timeZone: string): Date {
  const guess = wall.getTime();
  const offset = toWall(new Date(guess), timeZone).getTime() - guess;
  let instant = guess - offset;
  const corrected = toWall(new Date(instant), timeZone).getTime() - instant;
  if (corrected !== offset) instant = guess - corrected;
  return new Date(instant);
}

/**
 * The occurrences to materialise: the rule is expanded on the company's wall clock (so BYDAY=MO means a
 * local Monday and 09:00 stays 09:00 across DST), within [max(dtstart, now), +HORIZON_DAYS], capped.
 */
export function expandOccurrences(rule: RecurrenceRule, timeZone: string, now: Date): Occurrence[] {
  const dtstart = new Date(rule.dtstart);
  const from = new Date(Math.max(dtstart.getTime(), now.getTime()));
  const until = new Date(from.getTime() + HORIZON_DAYS * 86_400_000);
  const wallStart = toWall(dtstart, timeZone);
  // Rules stored before checkOccurs existed may never match: without this, between() walks to the year 9999.
  if (!firstOccurrence(rule.rrule, wallStart)) return [];
  const expanded = new RRule({ ...RRule.parseString(rule.rrule), dtstart: wallStart });
  const walls = expanded.between(
    toWall(from, timeZone),
    toWall(until, timeZone),
    true,
    (_date, index) => index < MAX_OCCURRENCES,
  );
  return walls.map((wall) => ({
    date: fromWall(wall, timeZone).toISOString(),
    recurrence_date: wall.toISOString().slice(0, 10),
  }));
}
