import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped, tenant } from '../../platform/tenant-table.ts';
import { feeQuantitySql, feesSql, type WorkWindow } from './billing.work.repository.ts';

/** Unbilled value of one contract for one period, as the engine would bill it (same grouping, same rounding). */
export interface MissedPart {
  client_id: number;
  contract_id: number;
  invoice_period: string;
  invoice_day: number;
  currency: string;
  period_from: string;
  /** Unbilled hours to two places (half away from zero, as every sum of ours); '0' for a fee. */
  hours: string;
  entries: number;
  unpriced: number;
  value: string;
}

/** Periodic fees not billed, per contract and period, pro rata and priced as the engine prices them. */
export async function missedFees(ctx: Ctx, w: WorkWindow): Promise<MissedPart[]> {
  // tenant: deliberate SQL — each table of feesSql and below is filtered by the caller's company.
  const result = await sql<MissedPart>`${feesSql(ctx, w)},
    fp as (
      select f.*, ${feeQuantitySql} as qty
        from f)
    select fp.client_id, fp.contract_id, fp.invoice_period, fp.invoice_day, fp.currency,
           fp.period_from::text as period_from, '0' as hours, 0 as entries,
           sum(case when fp.price is null then 1 else 0 end)::int as unpriced,
           coalesce(sum(round(fp.qty * fp.price * (1 - r.discount_rate / 100), 2)), 0)::text as value
      from fp join contract_rows r on ${tenant(ctx, 'r')} and r.id = fp.row_id
     group by 1, 2, 3, 4, 5, 6`.execute(ctx.db);
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
