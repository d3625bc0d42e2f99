import type { Ctx } from '../../platform/context.ts';
import { recentWindows, refreshSnapshot } from './reports.snapshots.ts';
import { localToday } from '../../platform/dates.ts';
import { resolveWindow } from './reports.window.ts';

export interface RefreshBodyValue {
  date_from?: string;
  date_to?: string;
}

/**
 * POST /reports/bi/refresh: recomputes KPI snapshots now, synchronously, and answers what was computed.
 * With a date: that window. Without: every window of the company read in the last day, and the current year
 * (the default window), so the dashboards people look at show the latest figures on their next read.
 * Not idempotent: each call recomputes.
 */
export async function refresh(ctx: Ctx, body: RefreshBodyValue) {
  const windows =
    body.date_from !== undefined || body.date_to !== undefined
      ? [resolveWindow(ctx, body)]
      : uniqueWindows([
          resolveWindow(ctx, { date_from: `${localToday(ctx.company.timezone).slice(0, 4)}-01-01` }),
          ...(await recentWindows(ctx)).map((w) => ({ ...w, timezone: ctx.company.timezone })),
        ]);
  const refreshed = [];
  for (const w of windows) {
    const { as_of } = await refreshSnapshot(ctx, w);
    refreshed.push({ date_from: w.from, date_to: w.to, as_of });
  }
  return { refreshed };
}

function uniqueWindows<W extends { from: string; to: string }>(windows: W[]): W[] {
  const seen = new Set<string>();
  return windows.filter((w) => {
    const key = `${w.from}|${w.to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
