import { asReport } from '../../platform/big-read.ts';
import type { Ctx } from '../../platform/context.ts';
import { nullWithoutFinancials } from '../../platform/field-tier.ts';
import { Dec } from '../../platform/money.ts';
import { hasTier } from '../../platform/scopes.ts';
import { hoursOf, moneyNumber, rounded } from './reports.numbers.ts';
import { namesOf, timeGroups, type GroupBy, type NamedTable, type TimeGroupRow } from './reports.bi.repository.ts';
import * as repo from './reports.repository.ts';
import { BI_STATES, type KpiSummaryRecord, type ReportWarning, type TimeSummaryRecord } from './reports.schemas.ts';
import { snapshotOf, type Figures } from './reports.snapshots.ts';
import { resolveWindow } from './reports.window.ts';

/** The money keys of the KPI summary: null without the financials tier (the report stays readable). */
export const KPI_MONEY_FIELDS = [
  'revenue',
  'cost',
  'operating_profit',
  'billing_gap',
  'billing_gap_details',
  'draft_revenue',
] as const;

export type BiState = (typeof BI_STATES)[number];

/** bi_state, first rule that holds (docs/decisions/0026). */
export function biStateOf(facts: repo.BiFacts): BiState {
  if (!facts.billing) return 'not_billing';
  if (!facts.has_time && !facts.has_invoices) return 'empty';
  if (!facts.has_time) return 'invoicing_only';
  if (!facts.has_cost_rate && !facts.has_price) return 'no_rates';
  return 'ok';
}

/** Invoices in another currency are left out of every sum, and the caller is told how many. */
export function currencyWarnings(ctx: Ctx, others: repo.OtherCurrency[]): ReportWarning[] {
  if (others.length === 0) return [];
  return [
    {
      code: 'REPORT_CURRENCY_EXCLUDED',
      message: `Invoices not in ${ctx.company.currency} are left out of the money figures (no conversion is made)`,
      details: { currency: ctx.company.currency, excluded: others },
    },
  ];
}

function moneyKeys(ctx: Ctx, figures: Figures) {
  const currency = ctx.company.currency;
  const { invoices, work, gap } = figures;
  const revenue = rounded(invoices.revenue, currency);
  const cost = rounded(work.cost, currency);
  const recoverable = gap && rounded(gap.recoverable_value, currency);
  const fixedFee = gap && rounded(gap.fixed_fee_value, currency);
  return {
    revenue: revenue.toNumber(),
    cost: cost.toNumber(),
    // From the rounded figures, so the three shown add up to the cent.
    operating_profit: revenue.minus(cost).toNumber(),
    // Without billing there is nothing to bill, so no gap is measured (null, not 0).
    billing_gap: recoverable && fixedFee && recoverable.plus(fixedFee).toNumber(),
    billing_gap_details: gap && {
      recoverable_value: recoverable!.toNumber(),
      fixed_fee_value: fixedFee!.toNumber(),
      items_unpriced: gap.items_unpriced,
    },
    draft_revenue: moneyNumber(invoices.draft_revenue, currency),
  };
}

const NO_MONEY = {
  revenue: null,
  cost: null,
  operating_profit: null,
  billing_gap: null,
  billing_gap_details: null,
  draft_revenue: null,
};

/**
 * GET /reports/kpi-summary: the window's snapshot (as_of says when it was computed). A personal key of a plain
 * member gets the hours it can see, counted now; it never has financials, so its money keys are null anyway.
 */
export async function kpiSummary(ctx: Ctx, query: { date_from?: string; date_to?: string }) {
  const w = resolveWindow(ctx, query);
  const financials = hasTier(ctx.key.scopes, 'financials');
  const { figures, as_of } = await snapshotOf(ctx, w);
  const work = ctx.actor.restricted ? await repo.workTotals(ctx, w) : figures.work;
  const record: KpiSummaryRecord = {
    date_from: w.from,
    date_to: w.to,
    timezone: w.timezone,
    currency: ctx.company.currency,
    as_of,
    bi_state: biStateOf(figures.facts),
    hours_total: hoursOf(work.secs),
    hours_billable: hoursOf(work.billable_secs),
    ...(financials ? moneyKeys(ctx, figures) : NO_MONEY),
  };
  const warnings = financials ? currencyWarnings(ctx, figures.other_currencies) : [];
  return { data: nullWithoutFinancials(ctx, record, KPI_MONEY_FIELDS), warnings };
}

const NAMED: Record<GroupBy, NamedTable> = {
  person: 'people',
  client: 'clients',
  project: 'projects',
  topic: 'topics',
};

function figures(secs: string, billableSecs: string) {
  const nonBillable = new Dec(secs).minus(billableSecs).toFixed();
  return {
    seconds: Number(secs),
    billable_seconds: Number(billableSecs),
    non_billable_seconds: Number(nonBillable),
    hours: hoursOf(secs),
    billable_hours: hoursOf(billableSecs),
    non_billable_hours: hoursOf(nonBillable),
  };
}

/** GET /reports/time-summary: hours per group, most first (then id, "none" last). */
export async function timeSummary(ctx: Ctx, query: { date_from?: string; date_to?: string; group_by?: GroupBy }) {
  const w = resolveWindow(ctx, query);
  const groupBy = query.group_by ?? 'person';
  const rows = (await asReport(ctx, (tx) => timeGroups(tx, w, groupBy))).sort(
    (a, b) => Number(b.secs) - Number(a.secs) || (a.id ?? Infinity) - (b.id ?? Infinity),
  );
  const names = await namesOf(
    ctx,
    NAMED[groupBy],
    rows.flatMap((r) => (r.id === null ? [] : [r.id])),
  );
  const total = (pick: (r: TimeGroupRow) => string) => rows.reduce((s, r) => s.plus(pick(r)), new Dec(0)).toFixed();
  const record: TimeSummaryRecord = {
    date_from: w.from,
    date_to: w.to,
    timezone: w.timezone,
    group_by: groupBy,
    totals: figures(
      total((r) => r.secs),
      total((r) => r.billable_secs),
    ),
    groups: rows.map((r) => ({
      id: r.id,
      name: r.id === null ? null : (names.get(r.id) ?? null),
      ...figures(r.secs, r.billable_secs),
    })),
  };
  return { data: record };
}
