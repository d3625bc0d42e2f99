import { Type, type Static } from 'typebox';
import { DateOnly, Id, mapOptional, MoneyOut, Timestamp } from '../../platform/fields.ts';
import type { MoneyFields } from '../../platform/http.ts';
import { listQuery } from '../../platform/lists.ts';

/** 366 days of seconds: the largest single adjustment, either way (the column's CHECK says the same). */
export const MAX_DURATION = 366 * 24 * 3600;

const Duration = Type.Integer({
  minimum: -MAX_DURATION,
  maximum: MAX_DURATION,
  description:
    'Seconds added to the balance, or deducted when negative (-3600 takes one hour off); not 0, at most 366 days either way',
});

export const FlextimeRow = Type.Object(
  {
    id: Type.Integer(),
    person_id: Type.Integer({ description: 'The member (person id) whose balance the row adjusts' }),
    date: DateOnly('The day the adjustment belongs to (YYYY-MM-DD); decides which balance window counts it'),
    duration: MoneyOut(Type.Integer({ description: 'Seconds; negative for a deduction' })),
    description: Type.String(),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'FlextimeRow' },
);
export type FlextimeRowRecord = Static<typeof FlextimeRow>;

const writable = {
  person_id: Id('Person id of a member of the company'),
  date: DateOnly('Day of the adjustment (YYYY-MM-DD)'),
  duration: Duration,
  description: Type.String({ maxLength: 1000, description: 'Why the balance is adjusted, up to 1000 characters' }),
};

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const FlextimeRowCreate = Type.Object(
  { ...mapOptional(writable), person_id: writable.person_id, date: writable.date, duration: writable.duration },
  { additionalProperties: false, title: 'FlextimeRowCreate' },
);
export type FlextimeRowCreateBody = Static<typeof FlextimeRowCreate>;

export const FlextimeRowUpdate = Type.Object(mapOptional(writable), {
  additionalProperties: false,
  title: 'FlextimeRowUpdate',
  description: 'duration needs an admin key; If-Match is honoured when sent',
});
export type FlextimeRowUpdateBody = Static<typeof FlextimeRowUpdate>;

/** Authentication rule 5: flextime duration needs admin; a key without financials is answered it as null. */
export const FLEXTIME_MONEY: MoneyFields = { write: ['duration'], read: ['duration'] };

export const FLEXTIME_LIST_OPTIONS = {
  sortable: {
    id: 'f.id',
    date: 'f.date',
    person_id: 'f.person_id',
    duration: 'f.duration',
    created_at: 'f.created_at',
    updated_at: 'f.updated_at',
  },
  defaultSort: 'date',
  // Flextime is not in the spec's list of cursor-mode resources.
  cursor: false,
};
export const FLEXTIME_FILTERS = ['person_id', 'date_from', 'date_to'] as const;
export const FlextimeListQuery = listQuery(
  {
    person_id: Type.Optional(Id('Rows of this person')),
    date_from: Type.Optional(DateOnly('Rows on or after this day')),
    date_to: Type.Optional(DateOnly('Rows on or before this day')),
  },
  FLEXTIME_LIST_OPTIONS,
);
export type FlextimeListParams = Static<typeof FlextimeListQuery>;

/** Longest balance window: ten years of days (the balance walks every day of it in SQL). */
export const MAX_WINDOW_DAYS = 3660;

export const FlextimeBalance = Type.Object(
  {
    person_id: Type.Integer(),
    date_from: DateOnly('First day of the window'),
    date_to: DateOnly('Last day of the window, inclusive'),
    expected_seconds: Type.Integer({
      description: "Working time the person's agreements expect in the window, less approved days off and holidays",
    }),
    worked_seconds: Type.Integer({
      description: 'Closed time entries, counted on the day (company time zone) they started',
    }),
    adjustments_seconds: Type.Integer({ description: 'Sum of the flextime rows dated in the window' }),
    opening_seconds: Type.Integer({
      description: "The member's flextime_credit (hours) as seconds: the balance carried in from before tracking",
    }),
    balance_seconds: Type.Integer({
      description: 'opening_seconds + worked_seconds + adjustments_seconds - expected_seconds',
    }),
    balance_hours: Type.Number({ description: 'balance_seconds in hours, rounded to 2 decimals' }),
  },
  { title: 'FlextimeBalance' },
);
export type FlextimeBalanceRecord = Static<typeof FlextimeBalance>;

export const BALANCE_FILTERS = ['person_id', 'date_from', 'date_to'] as const;
export const FlextimeBalanceQuery = listQuery(
  {
    person_id: Type.Optional(Id('Only this person')),
    date_from: Type.Optional(DateOnly('First day of the window; default 1 January of the current year')),
    date_to: Type.Optional(DateOnly("Last day of the window, inclusive; default today (company's time zone)")),
  },
  { cursor: false },
);
export type FlextimeBalanceParams = Static<typeof FlextimeBalanceQuery>;
