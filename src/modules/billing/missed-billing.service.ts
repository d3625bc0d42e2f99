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
import * as work from './unbilled-work.repository.ts';
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

const partsOf = (ctx: Ctx, w: WorkWindow) =>
  asBigRead(ctx, async (tx) => [...(await work.missedWork(tx, w)), ...(await repo.missedFees(tx, w))]);

/** The fees of one set-based pass, else of each client on its own so that only the broken ones fail. */
async function feesAndWork(ctx: Ctx, w: WorkWindow) {
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

/**
 * The unbilled work comes from the rollup, caught up first with every change committed so far; the fees are
 * computed from the contracts. A client whose data breaks either is reported in failed_clients and left out.
 */
async function computeParts(ctx: Ctx, w: WorkWindow) {
  const rollup = await catchUp(ctx);
  const { parts, failed } = await feesAndWork(ctx, w);
  const broken = new Set([...failed, ...rollup.failed.filter((c) => w.clientId === undefined || c === w.clientId)]);
  return { parts: parts.filter((p) => !broken.has(p.client_id)), failed: [...broken].sort((a, b) => a - b) };
}

interface Item {
  client_id: number;
  contract_id: number;
  currency: string;
  period_from: string;
  period_until: string;
  hours: string;
  entries: number;
  unpriced: number;
  recoverable: string;
  fees: string;
}

/**
 * A period's last day, or null while its invoice day is still to come (only periods whose invoice day has come
 * are missed). Remembered per kind, start and invoice day: a year of 10,000 contracts has 120,000 parts but a
 * dozen distinct periods.
 */
function dueUntil(today: string) {
  const known = new Map<string, string | null>();
  return (part: repo.MissedPart) => {
    const key = `${part.invoice_period}|${part.period_from}|${part.invoice_day}`;
    let until = known.get(key);
    if (until === undefined) {
      const period = periodOf(part.period_from, part.invoice_period);
      until = invoiceDayOf(period, part.invoice_day) > today ? null : period.until;
      known.set(key, until);
    }
    return until;
  };
}

/**
 * One item per contract and period. Each query groups by contract and period, so an item has at most one part
 * of work (its hours, entries and recoverable value) and one of fees: the item takes their figures as they are.
 */
function itemsOf(parts: repo.MissedPart[], today: string): Item[] {
  const untilOf = dueUntil(today);
  const items = new Map<string, Item>();
  for (const part of parts) {
    const until = untilOf(part);
    if (until === null) continue;
    const key = `${part.contract_id}|${part.period_from}`;
    let item = items.get(key);
    if (item === undefined) {
      item = {
        client_id: part.client_id,
        contract_id: part.contract_id,
        currency: part.currency,
        period_from: part.period_from,
        period_until: until,
        hours: '0',
        entries: 0,
        unpriced: 0,
        recoverable: '0',
        fees: '0',
      };
      items.set(key, item);
    }
    item.unpriced += part.unpriced;
    if (part.entries > 0) Object.assign(item, { hours: part.hours, entries: part.entries, recoverable: part.value });
    else item.fees = part.value;
  }
  // A numeric's text is zero exactly when it has no digit from 1 to 9.
  return [...items.values()].filter((i) => i.entries > 0 || /[1-9]/.test(i.fees) || i.unpriced > 0);
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
    (a, b) =>
      a.client_id - b.client_id ||
      (a.period_from < b.period_from ? -1 : a.period_from > b.period_from ? 1 : 0) ||
      a.contract_id - b.contract_id,
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
      unbilled_hours: moneyOut(i.hours)!,
      time_entries: i.entries,
      unpriced_entries: i.unpriced,
      recoverable_value: moneyOut(i.recoverable)!,
      fixed_fee_value: moneyOut(i.fees)!,
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
