import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { billedStatus } from '../invoices/index.ts';

/** Why a time entry may not change: the finalized invoice that billed it, or whose period it falls in. */
export interface BillingLock {
  invoice_id: number;
  invoice_number: string | null;
  period_from: string | null;
  period_until: string | null;
}

/** Entries billed on a finalized invoice (a draft's entries stay free: deleting its row releases them). */
async function lockedEntries(ctx: Ctx, ids: readonly number[]): Promise<Map<number, BillingLock>> {
  if (ids.length === 0) return new Map();
  // tenant: deliberate SQL — both tables filtered by company_id.
  const result = await sql<BillingLock & { time_entry_id: number }>`
    select l.time_entry_id, i.id as invoice_id, i.invoice_number, i.period_from::text as period_from,
           i.period_until::text as period_until
      from invoice_row_entries l
      join invoices i on i.company_id = l.company_id and i.id = l.invoice_id
     where l.company_id = ${ctx.companyId} and l.time_entry_id = any(${[...ids]}::int[])
       and ${billedStatus('i')}`.execute(ctx.db);
  return new Map(result.rows.map(({ time_entry_id, ...lock }) => [time_entry_id, lock]));
}

/**
 * For each (task, start): the finalized invoice that billed time of the task's client for a period holding the
 * start's local day. New or moved entries may not land there: the period is closed. `items` is a relation of
 * (task_id, start, n); the query answers (n, lock) for the items that are locked.
 */
export function lockedPeriodsQuery(ctx: Ctx, items: RawBuilder<unknown>): RawBuilder<BillingLock & { n: number }> {
  // tenant: deliberate SQL — tasks and invoices filtered by company_id.
  return sql<BillingLock & { n: number }>`
    select x.n::int as n, i.id as invoice_id, i.invoice_number, i.period_from::text as period_from,
           i.period_until::text as period_until
      from ${items} as x(task_id, start, n)
      join tasks t on t.company_id = ${ctx.companyId} and t.id = x.task_id
      cross join lateral (
        select i.* from invoices i
         where i.company_id = ${ctx.companyId} and i.client_id = t.client_id and i.bills_time
           and ${billedStatus('i')}
           and (x.start at time zone ${ctx.company.timezone})::date between i.period_from and i.period_until
         order by i.id limit 1) i`;
}

/** Item by item: the lock of each (task, start), or undefined where its period is open. */
export async function lockedPeriods(
  ctx: Ctx,
  items: ReadonlyArray<{ task_id: number; start: string }>,
): Promise<Array<BillingLock | undefined>> {
  if (items.length === 0) return [];
  const relation = sql`unnest(${items.map((i) => i.task_id)}::int[], ${items.map((i) => i.start)}::timestamptz[])
    with ordinality`;
  const result = await lockedPeriodsQuery(ctx, relation).execute(ctx.db);
  const out: Array<BillingLock | undefined> = items.map(() => undefined);
  for (const { n, ...lock } of result.rows) out[n - 1] = lock;
  return out;
}

/**
 * The lock holding each existing entry: the finalized invoice that billed it, else the finalized invoice whose
 * period holds its start (the same period rule as new and moved entries). A locked entry may not be deleted
 * or have its money fields changed: a closed period neither gains nor loses time.
 */
export async function entryLocks(ctx: Ctx, ids: readonly number[]): Promise<Map<number, BillingLock>> {
  if (ids.length === 0) return new Map();
  // tenant: deliberate SQL — time_entries filtered by company_id.
  const entries = sql`(select te.task_id, te.start, te.id from time_entries te
    where te.company_id = ${ctx.companyId} and te.id = any(${[...ids]}::int[]))`;
  const [billed, periods] = await Promise.all([
    lockedEntries(ctx, ids),
    lockedPeriodsQuery(ctx, entries).execute(ctx.db),
  ]);
  const locks = new Map(periods.rows.map(({ n, ...lock }) => [n, lock]));
  for (const [id, lock] of billed) locks.set(id, lock);
  return locks;
}
