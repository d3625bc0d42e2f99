import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { asReport } from '../../platform/big-read.ts';
import type { Ctx } from '../../platform/context.ts';
import { systemActor } from '../../platform/system-actor.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { missedBillingTotals, type MissedTotals } from '../billing/index.ts';
import * as repo from './reports.repository.ts';
import type { ReportWindow } from './reports.window.ts';

/**
 * KPI snapshots (migration 0074, docs/decisions/0026): the company-wide figures of one window, computed in one go
 * and kept, so a read of a busy year costs one row. Served while younger than SNAPSHOT_MAX_AGE_MS; the periodic task
 * keeps the windows read in the last day fresher than that, so a window people look at is normally a hit.
 */
export const SNAPSHOT_MAX_AGE_MS = 10 * 60_000;
export const REFRESH_EVERY_MS = 5 * 60_000;
const KEEP_UNREAD_DAYS = 7;
const REFRESH_BATCH = 20;

export interface Figures {
  facts: repo.BiFacts;
  work: repo.WorkTotals;
  invoices: repo.InvoiceTotals;
  other_currencies: repo.OtherCurrency[];
  /** null: billing is off, so no gap is measured. */
  gap: MissedTotals | null;
}

export interface Snapshot {
  figures: Figures;
  as_of: string;
}

/** The figures of a window for the whole company (never narrowed by a personal key's visibility). */
export async function computeFigures(ctx: Ctx, w: ReportWindow): Promise<Figures> {
  return asReport({ ...ctx, actor: { ...ctx.actor, restricted: false } }, async (company) => {
    const facts = await repo.biFacts(company, w);
    return {
      facts,
      work: await repo.workTotals(company, w),
      invoices: await repo.invoiceTotals(company, w),
      other_currencies: await repo.otherCurrencies(company, w),
      gap: facts.billing ? await missedBillingTotals(company, { date_from: w.from, date_to: w.to }) : null,
    };
  });
}

/** Computes and stores the window's snapshot now. */
export async function refreshSnapshot(ctx: Ctx, w: ReportWindow): Promise<Snapshot> {
  const figures = await computeFigures(ctx, w);
  const row = await scoped
    .insert(ctx, 'report_snapshots', [
      {
        date_from: w.from,
        date_to: w.to,
        figures: JSON.stringify(figures),
        computed_at: sql<string>`now()` as never,
        read_at: sql<string>`now()` as never,
      },
    ])
    .onConflict((oc) =>
      oc.columns(['company_id', 'date_from', 'date_to']).doUpdateSet({
        figures: JSON.stringify(figures),
        computed_at: sql<string>`now()` as never,
      }),
    )
    .returning(sql<string>`to_char(computed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('as_of'))
    .executeTakeFirstOrThrow();
  return { figures, as_of: row.as_of };
}

/** The window's snapshot: the stored one while fresh (noting the read), else computed now. */
export async function snapshotOf(ctx: Ctx, w: ReportWindow): Promise<Snapshot> {
  const fresh = await scoped
    .select(ctx, 'report_snapshots', 's')
    .where('s.date_from', '=', w.from)
    .where('s.date_to', '=', w.to)
    .where(sql<boolean>`s.computed_at > now() - ${`${SNAPSHOT_MAX_AGE_MS} milliseconds`}::interval`)
    .select([
      's.figures',
      sql<string>`to_char(s.computed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('as_of'),
      sql<boolean>`s.read_at < now() - interval '1 hour'`.as('mark_read'),
    ])
    .executeTakeFirst();
  if (!fresh) return refreshSnapshot(ctx, w);
  // read_at only steers the periodic refresh, so an hour's precision is enough: most reads write nothing.
  if (fresh.mark_read)
    await scoped
      .update(ctx, 'report_snapshots')
      .set({ read_at: sql<string>`now()` as never })
      .where('date_from', '=', w.from)
      .where('date_to', '=', w.to)
      .execute();
  return { figures: fresh.figures as unknown as Figures, as_of: fresh.as_of };
}

/** The company's windows read in the last day, most recently read first (what POST /reports/bi/refresh renews). */
export async function recentWindows(ctx: Ctx, limit = REFRESH_BATCH): Promise<Array<{ from: string; to: string }>> {
  return scoped
    .select(ctx, 'report_snapshots', 's')
    .where(sql<boolean>`s.read_at > now() - interval '1 day'`)
    .select([sql<string>`s.date_from::text`.as('from'), sql<string>`s.date_to::text`.as('to')])
    .orderBy('s.read_at', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The periodic task: recompute a batch of snapshots read in the last day and older than the refresh interval
 * (oldest first), and drop those nobody read for a week. Safe to run on several processes at once: the worst case
 * is a window computed twice. Crosses companies, as background work does; each snapshot is computed as its company.
 */
export async function refreshDue(db: Executor, now: Date): Promise<Record<string, number>> {
  // tenant: deliberate SQL — system work over every company's snapshots; each one is recomputed as its own company.
  const dropped = await db
    .deleteFrom('report_snapshots')
    .where('read_at', '<', new Date(now.getTime() - KEEP_UNREAD_DAYS * 86_400_000).toISOString())
    .executeTakeFirst();
  const due = await db
    .selectFrom('report_snapshots')
    .select(['company_id', sql<string>`date_from::text`.as('from'), sql<string>`date_to::text`.as('to')])
    .where('read_at', '>', new Date(now.getTime() - 86_400_000).toISOString())
    .where('computed_at', '<', new Date(now.getTime() - REFRESH_EVERY_MS).toISOString())
    .orderBy('computed_at')
    .limit(REFRESH_BATCH)
    .execute();
  let refreshed = 0;
  for (const row of due) {
    const actor = await systemActor(db, row.company_id);
    if (!actor) continue;
    const ctx: Ctx = { ...actor, db, requestId: 'report-snapshots' };
    await refreshSnapshot(ctx, { from: row.from, to: row.to, timezone: ctx.company.timezone });
    refreshed += 1;
  }
  return { refreshed, dropped: Number(dropped.numDeletedRows) };
}
