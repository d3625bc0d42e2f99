import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped, tenant } from '../../platform/tenant-table.ts';
import { feeQuantitySql, feesSql, type WorkWindow } from './billing.work.repository.ts';
import { workPartsSql } from './unbilled-work.repository.ts';

/** One item of the report: a contract's unbilled work and fees of one period (same grouping, same rounding). */
export interface MissedItemRow {
  client_id: number;
  contract_id: number;
  invoice_period: string;
  invoice_day: number;
  currency: string;
  period_from: string;
  /** Unbilled hours to two places (half away from zero, as every sum of ours). */
  hours: string;
  entries: number;
  unpriced: number;
  recoverable: string;
  fees: string;
}

/** Periodic fees not billed, per contract and period, pro rata and priced as the engine prices them. */
function feePartsSql(ctx: Ctx, w: WorkWindow) {
  // tenant: deliberate SQL — each table of feesSql and below is filtered by the caller's company.
  return sql`${feesSql(ctx, w)},
    fp as (
      select f.*, ${feeQuantitySql} as qty
        from f)
    select fp.contract_id, fp.client_id, fp.invoice_period, fp.invoice_day, fp.currency, fp.period_from,
           sum(case when fp.price is null then 1 else 0 end)::int as unpriced,
           coalesce(sum(round(fp.qty * fp.price * (1 - r.discount_rate / 100), 2)), 0) as value
      from fp join contract_rows r on ${tenant(ctx, 'r')} and r.id = fp.row_id
     group by 1, 2, 3, 4, 5, 6`;
}

/**
 * Work (from the unbilled-work rollup) and fees of each contract and period side by side, one row per item; an
 * item with no work, no fee and nothing unpriced is no item.
 */
function itemsSql(ctx: Ctx, w: WorkWindow) {
  return sql`with wk as (${workPartsSql(ctx, w)}), fe as (${feePartsSql(ctx, w)}),
    it as (
      select coalesce(wk.client_id, fe.client_id) as client_id, coalesce(wk.contract_id, fe.contract_id) as contract_id,
             coalesce(wk.invoice_period, fe.invoice_period) as invoice_period,
             coalesce(wk.invoice_day, fe.invoice_day) as invoice_day, coalesce(wk.currency, fe.currency) as currency,
             coalesce(wk.period_from, fe.period_from) as period_from, coalesce(wk.secs, 0) as secs,
             coalesce(wk.entries, 0) as entries, coalesce(wk.unpriced, 0) + coalesce(fe.unpriced, 0) as unpriced,
             coalesce(wk.value, 0) as recoverable, coalesce(fe.value, 0) as fees
        from wk full join fe on fe.contract_id = wk.contract_id and fe.period_from = wk.period_from)
    select * from it where it.entries > 0 or it.fees <> 0 or it.unpriced > 0`;
}

export async function missedItems(ctx: Ctx, w: WorkWindow): Promise<MissedItemRow[]> {
  const result = await sql<MissedItemRow>`select it.client_id, it.contract_id, it.invoice_period, it.invoice_day,
      it.currency, it.period_from::text as period_from, round(it.secs / 3600.0, 2)::text as hours, it.entries,
      it.unpriced, it.recoverable::text as recoverable, it.fees::text as fees
    from (${itemsSql(ctx, w)}) it`.execute(ctx.db);
  return result.rows;
}

/** The report's totals per kind of period, start and invoice day (whether each is due is the caller's rule). */
export interface MissedTotalsRow {
  invoice_period: string;
  invoice_day: number;
  period_from: string;
  recoverable: string;
  fees: string;
  unpriced_items: number;
}

export async function missedTotalsByPeriod(ctx: Ctx, w: WorkWindow): Promise<MissedTotalsRow[]> {
  const result = await sql<MissedTotalsRow>`select it.invoice_period, it.invoice_day,
      it.period_from::text as period_from, sum(it.recoverable)::text as recoverable, sum(it.fees)::text as fees,
      (count(*) filter (where it.unpriced > 0))::int as unpriced_items
    from (${itemsSql(ctx, w)}) it group by 1, 2, 3`.execute(ctx.db);
  return result.rows;
}

/** Clients with an active contract in force in the window (the report's population). */
export async function contractedClients(ctx: Ctx, w: WorkWindow): Promise<number[]> {
  let query = scoped
    .select(ctx, 'contracts', 'k')
    .where('k.type', '=', 'contract')
    .where('k.status', '=', 'active')
    .where('k.deleted_at', 'is', null)
    .where('k.client_id', 'is not', null)
    .where((eb) => eb.or([eb('k.date_from', 'is', null), eb('k.date_from', '<=', w.to)]))
    .where((eb) => eb.or([eb('k.date_until', 'is', null), eb('k.date_until', '>=', w.from)]));
  if (w.clientId !== undefined) query = query.where('k.client_id', '=', w.clientId);
  const rows = await query.select('k.client_id').distinct().orderBy('k.client_id').execute();
  return rows.map((r) => r.client_id!);
}

export async function names(ctx: Ctx, table: 'clients' | 'contracts', ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await scoped
    .select(ctx, table, 'x')
    .where('x.id', 'in', [...new Set(ids)])
    .select(['x.id', 'x.name'])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
