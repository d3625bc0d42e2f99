import { asBigRead } from '../../platform/big-read.ts';
import type { Ctx } from '../../platform/context.ts';
import { calendarWindow } from '../../platform/date-window.ts';
import { AppError } from '../../platform/errors.ts';
import { Dec, moneyOut } from '../../platform/money.ts';
import { hasTier } from '../../platform/scopes.ts';
import { localToday } from '../../platform/dates.ts';
import { invoiceDayOf, periodOf } from './billing.periods.ts';
import type { WorkWindow } from './billing.work.repository.ts';
import * as repo from './missed-billing.repository.ts';
import { catchUp, dataFailure } from './unbilled-work.service.ts';

export interface MissedQuery {
  client_id?: number;
  date_from?: string;
  date_to?: string;
}

export interface MissedTotals {
  recoverable_value: string;
  fixed_fee_value: string;
  items_unpriced: number;
}

/** Financials is the route's tier; the spec adds: the key's person is an admin, and billing is switched on. */
function assertAllowed(ctx: Ctx): void {
  // An integration key acts for the company: its admin scope is the administrator status the spec asks for.
  const admin =
    ctx.key.kind === 'integration'
      ? hasTier(ctx.key.scopes, 'admin')
      : ctx.actor.role === 'admin' || ctx.actor.role === 'owner';
  if (!admin)
    throw new AppError('FORBIDDEN', 'The missed-billing report is open to administrators only', {
      reason: 'ADMIN_REQUIRED',
    });
  if (ctx.company.features.billing !== true)
    throw new AppError('FORBIDDEN', 'The billing feature is not active for this company', {
      reason: 'BILLING_NOT_ACTIVE',
    });
}

/**
 * The window: the company's calendar year by default; date_from alone runs to the end of its year, date_to alone
 * starts on 1 January of its year; at most a year (the shared rule of src/platform/date-window.ts).
 */
export function windowOf(ctx: Ctx, query: MissedQuery): WorkWindow {
  const w = calendarWindow(query, localToday(ctx.company.timezone));
  return query.client_id === undefined ? w : { ...w, clientId: query.client_id };
}

/**
 * The clients left out: those whose groups the rollup could not build and, should one client's contracts break
 * the set-based pass over fees, each client whose own pass fails. Everyone else still answers.
 */
async function brokenClients(ctx: Ctx, w: WorkWindow, rollupFailed: number[]): Promise<number[]> {
  const excluded = rollupFailed.filter((c) => w.clientId === undefined || c === w.clientId);
  const probe = (v: WorkWindow) => asBigRead(ctx, (tx) => repo.missedTotalsByPeriod(tx, v));
  try {
    await probe({ ...w, excluded });
    return excluded;
  } catch (error) {
    if (!dataFailure(error)) throw error;
  }
  const failed = [...excluded];
  for (const clientId of await repo.contractedClients(ctx, w)) {
    if (excluded.includes(clientId)) continue;
    try {
      await probe({ ...w, clientId });
    } catch (inner) {
      if (!dataFailure(inner)) throw inner;
      failed.push(clientId);
    }
  }
  return failed.sort((a, b) => a - b);
}

/** The rollup caught up with every change committed so far, and the clients that cannot be computed. */
async function prepare(ctx: Ctx, w: WorkWindow) {
  const rollup = await catchUp(ctx);
  const failed = rollup.failed.length === 0 ? [] : await brokenClients(ctx, w, rollup.failed);
  return { w: { ...w, excluded: failed }, failed };
}

/** Runs fn on the window; should the data break it, again without the broken clients. */
async function read<T>(ctx: Ctx, w: WorkWindow, fn: (tx: Ctx, w: WorkWindow) => Promise<T>) {
  const ready = await prepare(ctx, w);
  try {
    return { value: await asBigRead(ctx, (tx) => fn(tx, ready.w)), failed: ready.failed };
  } catch (error) {
    if (!dataFailure(error)) throw error;
    const failed = await brokenClients(ctx, w, ready.failed);
    return { value: await asBigRead(ctx, (tx) => fn(tx, { ...w, excluded: failed })), failed };
  }
}

/**
 * A period's last day, or null while its invoice day is still to come (only periods whose invoice day has come
 * are missed). Remembered per kind, start and invoice day: a year of 10,000 contracts has 120,000 items but a
 * dozen distinct periods.
 */
function dueUntil(today: string) {
  const known = new Map<string, string | null>();
  return (row: { invoice_period: string; period_from: string; invoice_day: number }) => {
    const key = `${row.invoice_period}|${row.period_from}|${row.invoice_day}`;
    let until = known.get(key);
    if (until === undefined) {
      const period = periodOf(row.period_from, row.invoice_period);
      until = invoiceDayOf(period, row.invoice_day) > today ? null : period.until;
      known.set(key, until);
    }
    return until;
  };
}

/** The KPI report's billing gap for a window: the same figures as the report's summary, without its access rule. */
export async function missedBillingTotals(ctx: Ctx, query: { date_from: string; date_to: string }) {
  const { value: rows } = await read(ctx, windowOf(ctx, query), repo.missedTotalsByPeriod);
  const due = dueUntil(localToday(ctx.company.timezone));
  const counted = rows.filter((r) => due(r) !== null);
  return {
    recoverable_value: counted.reduce((s, r) => s.plus(r.recoverable), new Dec(0)).toFixed(2),
    fixed_fee_value: counted.reduce((s, r) => s.plus(r.fees), new Dec(0)).toFixed(2),
    items_unpriced: counted.reduce((n, r) => n + r.unpriced_items, 0),
  };
}

export async function missedBilling(ctx: Ctx, query: MissedQuery) {
  assertAllowed(ctx);
  const w = windowOf(ctx, query);
  const { value: rows, failed } = await read(ctx, w, repo.missedItems);
  const due = dueUntil(localToday(ctx.company.timezone));
  const items = rows
    .map((row) => ({ row, until: due(row) }))
    .filter((i): i is { row: repo.MissedItemRow; until: string } => i.until !== null)
    .sort(
      (a, b) =>
        a.row.client_id - b.row.client_id ||
        (a.row.period_from < b.row.period_from ? -1 : a.row.period_from > b.row.period_from ? 1 : 0) ||
        a.row.contract_id - b.row.contract_id,
    );
  const clients = await repo.names(ctx, 'clients', [...items.map((i) => i.row.client_id), ...failed]);
  const contracts = await repo.names(
    ctx,
    'contracts',
    items.map((i) => i.row.contract_id),
  );
  let recoverable = new Dec(0);
  let fees = new Dec(0);
  let unpriced = 0;
  for (const { row } of items) {
    recoverable = recoverable.plus(row.recoverable);
    fees = fees.plus(row.fees);
    if (row.unpriced > 0) unpriced += 1;
  }
  return {
    items: items.map(({ row, until }) => ({
      client_id: row.client_id,
      client_name: clients.get(row.client_id) ?? null,
      contract_id: row.contract_id,
      contract_name: contracts.get(row.contract_id) ?? null,
      period_from: row.period_from,
      period_until: until,
      currency: row.currency,
      unbilled_hours: moneyOut(row.hours)!,
      time_entries: row.entries,
      unpriced_entries: row.unpriced,
      recoverable_value: moneyOut(row.recoverable)!,
      fixed_fee_value: moneyOut(row.fees)!,
    })),
    failed_clients: failed.map((id) => ({
      client_id: id,
      client_name: clients.get(id) ?? null,
      message: 'The billing figures of this client could not be computed; check its contracts',
    })),
    summary: {
      date_from: w.from,
      date_to: w.to,
      currency: ctx.company.currency,
      items: items.length,
      recoverable_value: moneyOut(recoverable.toFixed(2))!,
      fixed_fee_value: moneyOut(fees.toFixed(2))!,
      items_unpriced: unpriced,
    },
  };
}
