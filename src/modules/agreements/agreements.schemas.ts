import { Type, type Static } from 'typebox';
import { DateOnly, Id, mapOptional, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

const CostType = Type.Union([Type.Literal('hour'), Type.Literal('month')], {
  description: 'hour (default): cost_rate is per hour worked; month: cost_rate is per calendar month',
});
const CostRate = Type.Number({
  description: 'Cost of the person in the company currency, per hour or per month (cost_type); 0 or more, 4 decimals',
});
const WeeklyHours = Type.Number({ description: 'Contracted working hours per week, 0-168, up to 2 decimals' });
const WorkDays = Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
  uniqueItems: true,
  maxItems: 7,
  description: 'ISO weekdays worked (1 = Monday ... 7 = Sunday); weekly_hours are spread evenly over them',
});
const DateFrom = DateOnly('First day the agreement applies (YYYY-MM-DD)');
const DateUntil = Nullable(DateOnly('Last day, inclusive (YYYY-MM-DD); null: open-ended'));

export const Agreement = Type.Object(
  {
    id: Type.Integer(),
    person_id: Type.Integer({ description: 'The member (person) the agreement is for' }),
    date_from: DateFrom,
    date_until: DateUntil,
    cost_type: CostType,
    cost_rate: CostRate,
    weekly_hours: WeeklyHours,
    work_days: WorkDays,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Agreement' },
);
export type AgreementRecord = Static<typeof Agreement>;

const writable = {
  date_from: DateFrom,
  date_until: DateUntil,
  cost_type: CostType,
  cost_rate: CostRate,
  weekly_hours: WeeklyHours,
  work_days: WorkDays,
};

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const AgreementCreate = Type.Object(
  {
    ...mapOptional(writable),
    person_id: Id('The member (person id) the agreement is for'),
    date_from: writable.date_from,
  },
  {
    additionalProperties: false,
    title: 'AgreementCreate',
    description: 'Defaults: cost_type hour, cost_rate 0, weekly_hours 40, work_days [1,2,3,4,5], date_until null',
  },
);
export type AgreementCreateBody = Static<typeof AgreementCreate>;

export const MemberAgreementCreate = Type.Object(
  {
    ...mapOptional(writable),
    person_id: Type.Optional(Id("Optional; when sent it must be the path member's person id")),
    date_from: writable.date_from,
  },
  { additionalProperties: false, title: 'MemberAgreementCreate', description: 'The person is the path member' },
);
export type MemberAgreementCreateBody = Static<typeof MemberAgreementCreate>;

export const AgreementUpdate = Type.Object(mapOptional(writable), {
  additionalProperties: false,
  title: 'AgreementUpdate',
  description: 'person_id cannot change: end this agreement and create one for the other person instead',
});
export type AgreementUpdateBody = Static<typeof AgreementUpdate>;

// Agreements are not in the spec's list of cursor-mode resources.
export const AGREEMENT_LIST_OPTIONS: ListOptions = {
  cursor: false,
  sortable: {
    date_from: 'a.date_from',
    id: 'a.id',
    created_at: 'a.created_at',
    updated_at: 'a.updated_at',
  },
  defaultSort: 'date_from',
};

const windowFilters = {
  date_from: Type.Optional(DateOnly('Agreements in force on or after this day (ending on or after it, or open)')),
  date_until: Type.Optional(DateOnly('Agreements starting on or before this day')),
};
export const MEMBER_AGREEMENT_FILTERS = ['date_from', 'date_until'] as const;
export const AGREEMENT_FILTERS = ['date_from', 'date_until', 'person_id'] as const;
export const AgreementListQuery = listQuery(
  { ...windowFilters, person_id: Type.Optional(Id('Agreements of this person')) },
  AGREEMENT_LIST_OPTIONS,
);
export const MemberAgreementListQuery = listQuery(windowFilters, AGREEMENT_LIST_OPTIONS);
/** The member route's query lacks only person_id, so it passes as this type too. */
export type AgreementListParams = Static<typeof AgreementListQuery>;
