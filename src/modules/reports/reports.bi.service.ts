import { sql } from 'kysely';
import { asReport } from '../../platform/big-read.ts';
import type { Ctx } from '../../platform/context.ts';
import { AppError, domainValidation, notFound } from '../../platform/errors.ts';
import { Dec, type DecimalInput } from '../../platform/money.ts';
import { hasTier } from '../../platform/scopes.ts';
import * as bi from './reports.bi.repository.ts';
import { hoursOf, rounded } from './reports.numbers.ts';
import { otherCurrencies } from './reports.repository.ts';
import {
  MONEY_METRICS,
  type BreakdownBy,
  type BreakdownRecord,
  type Metric,
  type SeriesRecord,
} from './reports.schemas.ts';
import { currencyWarnings } from './reports.service.ts';
import { snapshotOf } from './reports.snapshots.ts';
import { plusDays, resolveWindow, type ReportWindow } from './reports.window.ts';

interface Bucket {
  key: string;
  start: string;
  end: string;
}

const MONTHS: Record<bi.Interval, number> = { month: 1, quarter: 3, year: 12 };

/** The calendar buckets of the window; the first and last are clipped to it. key = the bucket's natural first day. */
export function bucketsOf(w: ReportWindow, interval: bi.Interval): Bucket[] {
  const months = MONTHS[interval];
  const buckets: Bucket[] = [];
  let year = Number(w.from.slice(0, 4));
  let month = Number(w.from.slice(5, 7)) - 1;
  month -= month % months;
  for (;;) {
    const key = `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-01`;
    if (key > w.to) return buckets;
    month += months;
    if (month >= 12) [year, month] = [year + 1, month - 12];
    const next = `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-01`;
    const last = plusDays(next, -1);
    buckets.push({ key, start: key < w.from ? w.from : key, end: last > w.to ? w.to : last });
  }
}

/** A money metric asked for without financials is refused whole: a BI shape of nulls would say nothing. */
function assertMetricTier(ctx: Ctx, metric: Metric): void {
  if (MONEY_METRICS.includes(metric) && !hasTier(ctx.key.scopes, 'financials'))
    throw new AppError(
      'FINANCIAL_SCOPE_REQUIRED',
      `The ${metric} metric needs the financials tier (carried by admin keys)`,
      {
        required_scope: 'financials',
        metric,
      },
    );
}

/** The value of a metric in one unit: hours (2 decimals) or money rounded to the currency. */
const valueOf = (ctx: Ctx, metric: Metric, raw: DecimalInput): number =>
  metric === 'hours' ? hoursOf(raw) : rounded(raw, ctx.company.currency).toNumber();

/**
 * The gap is computed per window by the missed-billing rules, so each bucket is a window of its own, served from
 * the KPI snapshots (the same figures GET /reports/kpi-summary answers for that window). null: billing is off.
 */
async function gapValues(ctx: Ctx, buckets: Bucket[]) {
  const gaps = new Map<string, string>();
  let asOf: string | null = null;
  for (const b of buckets) {
    const { figures, as_of } = await snapshotOf(ctx, { from: b.start, to: b.end, timezone: ctx.company.timezone });
    if (!figures.gap) return { values: null, asOf: null };
    gaps.set(b.key, new Dec(figures.gap.recoverable_value).plus(figures.gap.fixed_fee_value).toFixed());
    if (asOf === null || as_of < asOf) asOf = as_of;
  }
  return { values: gaps, asOf };
}

async function seriesValues(ctx: Ctx, w: ReportWindow, metric: Metric, interval: bi.Interval, buckets: Bucket[]) {
  if (metric === 'billing_gap') return gapValues(ctx, buckets);
  const rows = await asReport(ctx, (tx) =>
    metric === 'hours'
      ? bi.hoursBy(tx, w, bi.entryBucket(w, interval))
      : metric === 'revenue'
        ? bi.revenueByBucket(tx, w, interval)
        : bi.costBy(tx, w, (alias) => bi.bucketOf(interval, sql.ref(`${alias}.day`))),
  );
  return { values: new Map(rows.map((r) => [String(r.k), r.v])), asOf: null };
}

/** GET /reports/bi/series. */
export async function series(
  ctx: Ctx,
  query: { metric: Metric; interval?: bi.Interval; date_from?: string; date_to?: string },
) {
  assertMetricTier(ctx, query.metric);
  const w = resolveWindow(ctx, query);
  const interval = query.interval ?? 'month';
  const buckets = bucketsOf(w, interval);
  const { values, asOf } = await seriesValues(ctx, w, query.metric, interval, buckets);
  const points = buckets.map((b) => ({
    period_start: b.start,
    period_end: b.end,
    value: values && valueOf(ctx, query.metric, values.get(b.key) ?? 0),
  }));
  const record: SeriesRecord = {
    date_from: w.from,
    date_to: w.to,
    timezone: w.timezone,
    metric: query.metric,
    interval,
    unit: query.metric === 'hours' ? 'hours' : ctx.company.currency,
    as_of: asOf,
    // The sum of the rounded points, so the chart and its total agree.
    total: values && points.reduce((sum, p) => sum.plus(p.value!), new Dec(0)).toNumber(),
    points,
  };
  const warnings = query.metric === 'revenue' ? currencyWarnings(ctx, await otherCurrencies(ctx, w)) : [];
  return { data: record, warnings };
}

/** Which breakdowns a metric has: time has no product, cost belongs to people, the gap is per contract. */
const BREAKDOWNS: Record<Metric, readonly BreakdownBy[]> = {
  revenue: ['client', 'person', 'product'],
  hours: ['client', 'person'],
  cost: ['person'],
  billing_gap: [],
};

const NAMES: Record<BreakdownBy, bi.NamedTable> = { client: 'clients', person: 'people', product: 'products' };

async function breakdownRows(ctx: Ctx, w: ReportWindow, metric: Metric, by: BreakdownBy) {
  if (metric === 'revenue') return bi.revenueBy(ctx, w, by);
  if (metric === 'hours') return bi.hoursBy(ctx, w, bi.entryKey(ctx, by === 'person' ? 'person' : 'client'));
  return bi.costBy(ctx, w, (alias) => sql.ref(`${alias}.person_id`));
}

function assertBreakdown(metric: Metric, by: BreakdownBy): void {
  if (!BREAKDOWNS[metric].includes(by))
    throw domainValidation('UNSUPPORTED_BREAKDOWN', `${metric} cannot be broken down by ${by}`, {
      field: 'by',
      metric,
      supported: BREAKDOWNS[metric],
    });
}

/** Non-zero items in the metric's unit, largest first, then by id with "none" (null) last. */
async function rankedRows(ctx: Ctx, w: ReportWindow, metric: Metric, by: BreakdownBy) {
  return (await asReport(ctx, (tx) => breakdownRows(tx, w, metric, by)))
    .filter((r) => !new Dec(r.v).isZero())
    .map((r) => ({ id: r.k === null ? null : Number(r.k), value: valueOf(ctx, metric, r.v) }))
    .sort((a, b) => b.value - a.value || (a.id ?? Infinity) - (b.id ?? Infinity));
}

/** GET /reports/bi/breakdown: items by value, largest first (then id, "none" last); the rest summed in others. */
export async function breakdown(
  ctx: Ctx,
  query: { metric: Metric; by: BreakdownBy; limit?: number; date_from?: string; date_to?: string },
) {
  assertMetricTier(ctx, query.metric);
  assertBreakdown(query.metric, query.by);
  const w = resolveWindow(ctx, query);
  const rows = await rankedRows(ctx, w, query.metric, query.by);
  const limit = query.limit ?? 50;
  const shown = rows.slice(0, limit);
  const names = await bi.namesOf(
    ctx,
    NAMES[query.by],
    shown.flatMap((r) => (r.id === null ? [] : [r.id])),
  );
  const sum = (list: typeof rows) => list.reduce((s, r) => s.plus(r.value), new Dec(0)).toNumber();
  const record: BreakdownRecord = {
    date_from: w.from,
    date_to: w.to,
    timezone: w.timezone,
    metric: query.metric,
    by: query.by,
    unit: query.metric === 'hours' ? 'hours' : ctx.company.currency,
    total: sum(rows),
    items: shown.map((r) => ({ id: r.id, name: r.id === null ? null : (names.get(r.id) ?? null), value: r.value })),
    others: { count: rows.length - shown.length, value: sum(rows.slice(limit)) },
  };
  const warnings = query.metric === 'revenue' ? currencyWarnings(ctx, await otherCurrencies(ctx, w)) : [];
  return { data: record, warnings };
}

type BiQuery = {
  metric: Metric;
  interval?: bi.Interval;
  by?: BreakdownBy;
  limit?: number;
  date_from?: string;
  date_to?: string;
};

/** A parameter the other shape takes is refused like any unknown query parameter (the walk and clients rely on it). */
function refuseParam(query: BiQuery, names: readonly (keyof BiQuery)[]): void {
  const field = names.find((name) => query[name] !== undefined);
  if (field) throw new AppError('UNKNOWN_FILTER_FIELD', `Unknown query parameter: ${field}`, { field });
}

/** GET /reports/bi/{shape}: one path for both shapes, as the spec names it; each shape keeps its own parameters. */
export async function biShape(ctx: Ctx, shape: string, query: BiQuery) {
  const { by, limit, interval, ...common } = query;
  if (shape !== 'series' && shape !== 'breakdown') throw notFound(`BI shape ${shape}`);
  if (shape === 'series') {
    refuseParam(query, ['by', 'limit']);
    return series(ctx, { ...common, ...(interval ? { interval } : {}) });
  }
  refuseParam(query, ['interval']);
  if (by === undefined)
    throw new AppError('VALIDATION_ERROR', 'Query parameter by is required', {
      errors: [{ field: 'by', message: 'is required' }],
    });
  return breakdown(ctx, { ...common, by, ...(limit ? { limit } : {}) });
}
