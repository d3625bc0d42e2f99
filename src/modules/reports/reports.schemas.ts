import { Type, type Static } from 'typebox';
import { DateOnly, Nullable, Timestamp } from '../../platform/fields.ts';
import type { Warning } from '../../platform/http.ts';

/** One of the values (a union of literals in the document; typed as the value union in code). */
const Enum = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      { description },
    ),
  );

const windowParams = {
  date_from: Type.Optional(
    DateOnly("First local day (YYYY-MM-DD, company time zone); default 1 January of date_to's year, else this year"),
  ),
  date_to: Type.Optional(
    DateOnly("Last local day, inclusive; default 31 December of date_from's year; at most 366 days after date_from"),
  ),
};

export const KpiQuery = Type.Object(windowParams, { additionalProperties: false });

export const BI_STATES = ['ok', 'invoicing_only', 'not_billing', 'no_rates', 'empty'] as const;
export const GROUP_BYS = ['person', 'client', 'project', 'topic'] as const;
export const METRICS = ['revenue', 'cost', 'hours', 'billing_gap'] as const;
export const MONEY_METRICS: readonly Metric[] = ['revenue', 'cost', 'billing_gap'];
export const INTERVALS = ['month', 'quarter', 'year'] as const;
export const BREAKDOWN_BYS = ['client', 'person', 'product'] as const;
export type Metric = (typeof METRICS)[number];
export type BreakdownBy = (typeof BREAKDOWN_BYS)[number];

const Money = (description: string) =>
  Nullable(Type.Number({ description: `${description}; null without financials` }));

const windowOut = {
  date_from: DateOnly('First local day of the window'),
  date_to: DateOnly('Last local day of the window (inclusive)'),
  timezone: Type.String({ description: 'The company time zone the days are read in' }),
};

export const KpiSummary = Type.Object(
  {
    ...windowOut,
    currency: Type.String({ description: 'Company currency of every money key' }),
    as_of: Timestamp(
      'When these figures were computed (a snapshot at most about 10 minutes old; see POST /reports/bi/refresh)',
    ),
    bi_state: Enum(BI_STATES, 'How far the window can be analysed (docs/decisions/0026)'),
    hours_total: Type.Number({ description: 'Hours of closed time entries starting in the window (2 decimals)' }),
    hours_billable: Type.Number({ description: 'Of those, billable entries on billable topics' }),
    revenue: Money('Net of finalized invoices (created, sent, paid) dated in the window'),
    cost: Money('Cost of the window from member agreements (hourly and monthly)'),
    operating_profit: Money('revenue − cost'),
    billing_gap: Money(
      'Unbilled value of billable work and periodic fees (as GET /missed-billing); null without billing',
    ),
    billing_gap_details: Nullable(
      Type.Object({
        recoverable_value: Type.Number(),
        fixed_fee_value: Type.Number(),
        items_unpriced: Type.Integer(),
      }),
    ),
    draft_revenue: Money('Net of draft invoices dated in the window; never part of the other keys'),
  },
  { title: 'KpiSummary' },
);
export type KpiSummaryRecord = Static<typeof KpiSummary>;
export type ReportWarning = Static<typeof Warning>;

export const TimeSummaryQuery = Type.Object(
  { ...windowParams, group_by: Type.Optional(Enum(GROUP_BYS, 'Group hours by; default person')) },
  { additionalProperties: false },
);

const timeFigures = {
  seconds: Type.Integer({ description: 'Exact seconds' }),
  billable_seconds: Type.Integer(),
  non_billable_seconds: Type.Integer(),
  hours: Type.Number({ description: 'seconds / 3600, rounded to 2 decimals' }),
  billable_hours: Type.Number(),
  non_billable_hours: Type.Number(),
};

export const TimeSummary = Type.Object(
  {
    ...windowOut,
    group_by: Enum(GROUP_BYS, 'What the groups are'),
    totals: Type.Object(timeFigures),
    groups: Type.Array(
      Type.Object({
        id: Nullable(Type.Integer({ description: 'Person, client, project or topic id; null: none' })),
        name: Nullable(Type.String()),
        ...timeFigures,
      }),
    ),
  },
  { title: 'TimeSummary' },
);
export type TimeSummaryRecord = Static<typeof TimeSummary>;

const metric = Enum(METRICS, 'revenue, cost and billing_gap need financials; hours does not');

const unit = Type.String({ description: '"hours", or the company currency for money metrics' });

export const Series = Type.Object(
  {
    ...windowOut,
    metric,
    interval: Enum(INTERVALS, 'Bucket size'),
    unit,
    as_of: Nullable(Timestamp('billing_gap: when the oldest bucket was computed (snapshots); null: computed now')),
    total: Nullable(Type.Number()),
    points: Type.Array(
      Type.Object({
        period_start: DateOnly('First day of the bucket (clipped to the window)'),
        period_end: DateOnly('Last day of the bucket (clipped to the window)'),
        value: Nullable(Type.Number({ description: 'null: not measured (billing_gap without billing)' })),
      }),
    ),
  },
  { title: 'BiSeries' },
);
export type SeriesRecord = Static<typeof Series>;

/** GET /reports/bi/{shape}: the path names the shape; each shape's own query is checked by the route. */
export const BiParams = Type.Object(
  {
    shape: Type.String({
      maxLength: 40,
      description: 'series (one metric per bucket) or breakdown (one metric split); other shapes: 404',
    }),
  },
  { additionalProperties: false },
);
export const BiQuery = Type.Object(
  {
    ...windowParams,
    metric,
    interval: Type.Optional(Enum(INTERVALS, 'series only: bucket size; default month')),
    by: Type.Optional(
      Enum(
        BREAKDOWN_BYS,
        'breakdown only, required: revenue by client, person or product; hours by client or person; cost by person',
      ),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 500,
        description: 'breakdown only: items listed (default 50); the rest are summed in others',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Breakdown = Type.Object(
  {
    ...windowOut,
    metric,
    by: Enum(BREAKDOWN_BYS, 'What the items are'),
    unit,
    total: Type.Number(),
    items: Type.Array(
      Type.Object({
        id: Nullable(Type.Integer({ description: 'null: none (e.g. rows without a product)' })),
        name: Nullable(Type.String()),
        value: Type.Number(),
      }),
    ),
    others: Type.Object({ count: Type.Integer(), value: Type.Number() }, { description: 'Items past limit, summed' }),
  },
  { title: 'BiBreakdown' },
);
export type BreakdownRecord = Static<typeof Breakdown>;

export const RefreshQuery = Type.Object(windowParams, {
  additionalProperties: false,
  description: 'A window (either date): recompute that one. None: every window read in the last day, and this year',
});
export const RefreshResult = Type.Object(
  {
    refreshed: Type.Array(
      Type.Object({ date_from: DateOnly('First day'), date_to: DateOnly('Last day'), as_of: Timestamp('Computed at') }),
    ),
  },
  { title: 'BiRefresh' },
);
