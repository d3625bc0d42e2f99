import { asBigRead } from '../../platform/big-read.ts';
import type { Ctx } from '../../platform/context.ts';
import { calendarWindow } from '../../platform/date-window.ts';
import { AppError } from '../../platform/errors.ts';
import { Dec, moneyOut } from '../../platform/money.ts';
import { hasTier } from '../../platform/scopes.ts';
import { addDays, localToday } from '../../platform/dates.ts';
import { invoiceDayOf } from './billing.periods.ts';
import type { WorkWindow } from './billing.work.repository.ts';
import * as repo from './missed-billing.repository.ts';

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

/** A failure of the data (a value that cannot be read), as opposed to the database being unreachable. */
const dataFailure = (error: unknown) => /^(22|23|42|XX)/.test(String((error as { code?: unknown })?.code ?? ''));

const partsOf = (ctx: Ctx, w: WorkWindow) =>
  asBigRead(ctx, async (tx) => [...(await repo.missedWork(tx, w)), ...(await repo.missedFees(tx, w))]);

/**
 * One set-based pass for every client; should one client's data break it, each client is computed on its own
 * so that only the broken ones are reported in failed_clients and the rest still answer.
 */
async function computeParts(ctx: Ctx, w: WorkWindow) {
  try {
    return { parts: await partsOf(ctx, w), failed: [] as number[] };
  } catch (error) {
    if (!dataFailure(error)) throw error;
    const parts: repo.MissedPart[] = [];
    const failed: number[] = [];
    for (const clientId of await repo.contractedClients(ctx, w)) {
      try {
        parts.push(...(await partsOf(ctx, { ...w, clientId })));
      } catch (inner) {
        if (!dataFailure(inner)) throw inner;
        failed.push(clientId);
      }
    }
    return { parts, failed };
  }
}

interface Item {
  client_id: number;
  contract_id: number;
  currency: string;
  period_from: string;
  period_until: string;
  seconds: Dec;
  entries: number;
  unpriced: number;
  recoverable: Dec;
  fees: Dec;
}

/** Only periods whose invoice day has come are missed; the rest are still to be billed in time. */
function itemsOf(parts: repo.MissedPart[], today: string): Item[] {
  const items = new Map<string, Item>();
  for (const part of parts) {
    const months = { month: 1, quarter: 3, half_year: 6, year: 12 }[part.invoice_period] ?? 1;
    const until = new Date(`${part.period_from}T00:00:00Z`);
    until.setUTCMonth(until.getUTCMonth() + months);
    const period = { from: part.period_from, until: addDays(until.toISOString().slice(0, 10), -1) };
    if (invoiceDayOf(period, part.invoice_day) > today) continue;
    const key = `${part.contract_id}|${part.period_from}`;
    const item = items.get(key) ?? {
      client_id: part.client_id,
      contract_id: part.contract_id,
      currency: part.currency,
      period_from: period.from,
      period_until: period.until,
      seconds: new Dec(0),
      entries: 0,
      unpriced: 0,
      recoverable: new Dec(0),
      fees: new Dec(0),
    };
    item.seconds = item.seconds.plus(part.seconds);
    item.entries += part.entries;
    item.unpriced += part.unpriced;
    if (part.entries > 0) item.recoverable = item.recoverable.plus(part.value);
    else item.fees = item.fees.plus(part.value);
    items.set(key, item);
  }
  return [...items.values()].filter((i) => i.entries > 0 || !i.fees.isZero() || i.unpriced > 0);
}

function totalsOf(items: Item[]): MissedTotals {
  return {
    recoverable_value: items.reduce((s, i) => s.plus(i.recoverable), new Dec(0)).toFixed(2),
    fixed_fee_value: items.reduce((s, i) => s.plus(i.fees), new Dec(0)).toFixed(2),
    items_unpriced: items.filter((i) => i.unpriced > 0).length,
  };
}

/** The KPI report's billing gap for a window: the same figures as the report's summary, without its access rule. */
export async function missedBillingTotals(ctx: Ctx, query: { date_from: string; date_to: string }) {
  const { parts } = await computeParts(ctx, windowOf(ctx, query));
  return totalsOf(itemsOf(parts, localToday(ctx.company.timezone)));
}

export async function missedBilling(ctx: Ctx, query: MissedQuery) {
  assertAllowed(ctx);
  const w = windowOf(ctx, query);
  const { parts, failed } = await computeParts(ctx, w);
  const items = itemsOf(parts, localToday(ctx.company.timezone)).sort(
    (a, b) => a.client_id - b.client_id || a.period_from.localeCompare(b.period_from) || a.contract_id - b.contract_id,
  );
  const clients = await repo.names(ctx, 'clients', [...items.map((i) => i.client_id), ...failed]);
  const contracts = await repo.names(
    ctx,
    'contracts',
    items.map((i) => i.contract_id),
  );
  const totals = totalsOf(items);
  return {
    items: items.map((i) => ({
      client_id: i.client_id,
      client_name: clients.get(i.client_id) ?? null,
      contract_id: i.contract_id,
      contract_name: contracts.get(i.contract_id) ?? null,
      period_from: i.period_from,
      period_until: i.period_until,
      currency: i.currency,
      unbilled_hours: moneyOut(i.seconds.dividedBy(3600).toDecimalPlaces(2).toFixed(2))!,
      time_entries: i.entries,
      unpriced_entries: i.unpriced,
      recoverable_value: moneyOut(i.recoverable.toFixed(2))!,
      fixed_fee_value: moneyOut(i.fees.toFixed(2))!,
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
      recoverable_value: moneyOut(totals.recoverable_value)!,
      fixed_fee_value: moneyOut(totals.fixed_fee_value)!,
      items_unpriced: totals.items_unpriced,
    },
  };
}
