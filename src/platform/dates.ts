/** Calendar days as YYYY-MM-DD strings: a company's "today" is its own local day. */

/** Today in the time zone (en-CA formats dates as YYYY-MM-DD); a zone the runtime does not know falls back to UTC. */
export function localToday(timezone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .format(now)
      .slice(0, 10);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** day ± days on the calendar (computed in UTC, so no time zone can shift it). */
export function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}
