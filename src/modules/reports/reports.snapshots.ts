import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { asReport } from '../../platform/big-read.ts';
import type { Ctx } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
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

/**
 * Computes and stores the window's snapshot now. byRead: a read asked for it (counted against the company's
 * READ_COMPUTATIONS); the periodic task and POST /reports/bi/refresh keep the count as it was.
 */
export async function refreshSnapshot(ctx: Ctx, w: ReportWindow, byRead = false): Promise<Snapshot> {
  const figures = await computeFigures(ctx, w);
  const readComputedAt = byRead ? sql<string>`now()` : sql<string>`report_snapshots.read_computed_at`;
  const row = await scoped
    .insert(ctx, 'report_snapshots', [
      {
        date_from: w.from,
        date_to: w.to,
        figures: JSON.stringify(figures),
        computed_at: sql<string>`now()`,
        read_at: sql<string>`now()`,
        read_computed_at: byRead ? sql<string>`now()` : null,
      },
    ])
    .onConflict((oc) =>
      oc.columns(['company_id', 'date_from', 'date_to']).doUpdateSet({
        figures: JSON.stringify(figures),
        computed_at: sql<string>`now()`,
        read_computed_at: readComputedAt,
      }),
    )
    .returning(sql<string>`to_char(computed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('as_of'))
    .executeTakeFirstOrThrow();
  return { figures, as_of: row.as_of };
}

/**
 * Snapshots one company's reads may compute per SNAPSHOT_MAX_AGE_MS (decision 0046): a read naming a new window
 * each time made a company-wide computation per request, up to the read rate limit (120 a minute per key).
 */
export const READ_COMPUTATIONS = 30;

/** How many computations this company's reads caused in the last SNAPSHOT_MAX_AGE_MS, and when the oldest ages out. */
async function readComputations(ctx: Ctx) {
  return scoped
    .select(ctx, 'report_snapshots', 's')
    .where(sql<boolean>`s.read_computed_at > now() - ${`${SNAPSHOT_MAX_AGE_MS} milliseconds`}::interval`)
    .select([
      sql<number>`count(*)::int`.as('n'),
      sql<number>`coalesce(extract(epoch from min(s.read_computed_at) - now())::float8 * 1000, 0)
        + ${SNAPSHOT_MAX_AGE_MS}::float8`.as('ms_left'),
    ])
    .executeTakeFirstOrThrow();
}

function tooManyWindows(msLeft: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(msLeft / 1000));
  return new AppError(
    'RATE_LIMIT_EXCEEDED',
    `This company's reports computed ${READ_COMPUTATIONS} new or outdated windows in the last ` +
      `${SNAPSHOT_MAX_AGE_MS / 60_000} minutes, the most they may; windows already computed are still answered`,
    {
      reason: 'REPORT_WINDOWS',
      limit: READ_COMPUTATIONS,
      per_seconds: SNAPSHOT_MAX_AGE_MS / 1000,
      retry_after: retryAfter,
    },
    { 'Retry-After': String(retryAfter) },
  );
}

/**
 * The window's snapshot: the stored one while fresh (noting the read), else computed now. Once the company's
 * reads have computed READ_COMPUTATIONS snapshots within SNAPSHOT_MAX_AGE_MS, an outdated one is answered as it
 * is (as_of says how old) and a window never computed is 429 RATE_LIMIT_EXCEEDED with Retry-After.
 */
export async function snapshotOf(ctx: Ctx, w: ReportWindow): Promise<Snapshot> {
  const stored = await scoped
    .select(ctx, 'report_snapshots', 's')
    .where('s.date_from', '=', w.from)
    .where('s.date_to', '=', w.to)
    .select([
      's.figures',
      sql<string>`to_char(s.computed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('as_of'),
      sql<boolean>`s.computed_at > now() - ${`${SNAPSHOT_MAX_AGE_MS} milliseconds`}::interval`.as('fresh'),
      sql<boolean>`s.read_at < now() - interval '1 hour'`.as('mark_read'),
    ])
    .executeTakeFirst();
  if (!stored?.fresh) {
    const spent = await readComputations(ctx);
    if (spent.n < READ_COMPUTATIONS) return refreshSnapshot(ctx, w, true);
    if (!stored) throw tooManyWindows(spent.ms_left);
  }
  // read_at only steers the periodic refresh, so an hour's precision is enough: most reads write nothing.
  if (stored.mark_read)
    await scoped
      .update(ctx, 'report_snapshots')
      .set({ read_at: sql<string>`now()` })
      .where('date_from', '=', w.from)
      .where('date_to', '=', w.to)
      .execute();
  return { figures: stored.figures as unknown as Figures, as_of: stored.as_of };
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
