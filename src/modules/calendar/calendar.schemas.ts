import { Type, type Static } from 'typebox';
import { DateOnly, EnumList, Id, mapOptional, Nullable, Text, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

export const CALENDAR_TYPES = ['vacation', 'flextime', 'sick_leave', 'time_off', 'holiday'] as const;
export const CALENDAR_STATUSES = ['in_review', 'approved', 'rejected'] as const;
export type CalendarType = (typeof CALENDAR_TYPES)[number];
export type CalendarStatus = (typeof CALENDAR_STATUSES)[number];

const EntryType = Type.Union(
  [
    Type.Literal('vacation'),
    Type.Literal('flextime'),
    Type.Literal('sick_leave'),
    Type.Literal('time_off'),
    Type.Literal('holiday'),
  ],
  { description: 'vacation, flextime, sick_leave or time_off; holiday entries are read-only (403 READ_ONLY on write)' },
);
const EntryStatus = Type.Union([Type.Literal('in_review'), Type.Literal('approved'), Type.Literal('rejected')], {
  description:
    'in_review, approved or rejected; approving or rejecting vacation and flextime happens only in the web application',
});

export const CalendarEntry = Type.Object(
  {
    id: Type.Integer({ description: 'Entry id; global public holidays (scope global/all) have negative ids' }),
    type: EntryType,
    person_id: Nullable(Type.Integer({ description: 'Person the entry is for; null on holidays' })),
    status: EntryStatus,
    date_from: DateOnly('First day (YYYY-MM-DD)'),
    date_until: DateOnly('Last day, inclusive (YYYY-MM-DD); not before date_from'),
    description: Nullable(Type.String({ description: 'Free text; the holiday name on global holidays' })),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'CalendarEntry' },
);
export type CalendarEntryRecord = Static<typeof CalendarEntry>;

const writable = {
  type: EntryType,
  person_id: Id("Person the entry is for; a person of this company (a plain member's personal key: only their own)"),
  status: Type.Union([Type.Literal('in_review'), Type.Literal('approved'), Type.Literal('rejected')], {
    description:
      'Entries are created in_review. Deciding (approved or rejected) vacation/flextime, or changing a decided one, needs a web session of an owner or admin (API keys: 409 CALENDAR_APPROVAL_UI_ONLY; admins never decide their own); sick_leave and time_off may be decided with PATCH',
  }),
  date_from: DateOnly('First day (YYYY-MM-DD)'),
  date_until: DateOnly(
    'Last day, inclusive (YYYY-MM-DD); default date_from; before date_from gives 400 INVALID_DATE_RANGE',
  ),
  description: Text('Free text', 5000),
};

export const CalendarEntryCreate = Type.Object(
  { ...mapOptional(writable), type: writable.type, person_id: writable.person_id, date_from: writable.date_from },
  { additionalProperties: false, title: 'CalendarEntryCreate' },
);
export type CalendarEntryCreateBody = Static<typeof CalendarEntryCreate>;
export const CalendarEntryUpdate = Type.Object(mapOptional(writable), {
  additionalProperties: false,
  title: 'CalendarEntryUpdate',
});
export type CalendarEntryUpdateBody = Static<typeof CalendarEntryUpdate>;

/** Negative ids name global public holidays, so the path accepts them; 0 names nothing. */
export const CalendarEntryParams = Type.Object({
  calendar_entry_id: Type.Integer({
    minimum: -2147483647,
    maximum: 2147483647,
    description: 'Entry id (negative for a global public holiday)',
  }),
});

// Calendar is not in the spec's cursor list: offset-only.
export const CALENDAR_LIST_OPTIONS: ListOptions = {
  cursor: false,
  sortable: {
    date_from: 'e.date_from',
    date_until: 'e.date_until',
    id: 'e.id',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'date_from',
};
export const CALENDAR_FILTERS = ['type', 'person_id', 'status', 'date_from', 'date_until', 'scope'] as const;
export const CalendarListQuery = listQuery(
  {
    type: Type.Optional(EnumList(CALENDAR_TYPES, 'Type filter')),
    person_id: Type.Optional(Id('Entries of this person')),
    status: Type.Optional(EnumList(CALENDAR_STATUSES, 'Status filter')),
    date_from: Type.Optional(DateOnly('Entries ending on or after this day')),
    date_until: Type.Optional(DateOnly('Entries starting on or before this day')),
    scope: Type.Optional(
      Type.Union([Type.Literal('company'), Type.Literal('global'), Type.Literal('all')], {
        description: "company (default): the company's own entries; global: global public holidays; all: both",
      }),
    ),
  },
  CALENDAR_LIST_OPTIONS,
);
export type CalendarListParams = Static<typeof CalendarListQuery>;
