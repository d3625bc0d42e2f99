import { Type, type Static } from 'typebox';
import { FlagIn, FlagOut, Id, mapOptional, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

/** Most entries one bulk request may carry. */
export const BULK_MAX = 200;

/**
 * A date-time as callers send it: with an offset or Z it is taken as given; without one it is a
 * wall-clock time in the company's timezone. Calendar validity (Feb 30...) is checked by the service.
 */
export const DATE_TIME_IN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|z|[+-]\\d{2}:?\\d{2})?$';
const DateTimeIn = (description: string) =>
  Type.String({
    pattern: DATE_TIME_IN,
    description: `${description}. ISO 8601; without an offset (e.g. 2026-03-29T02:30:00) it is read in the company's timezone`,
  });
const Seconds = (description: string) => Type.Integer({ minimum: 0, maximum: 2147483647, description });

export const TimeEntry = Type.Object(
  {
    id: Type.Integer(),
    task_id: Type.Integer({ description: 'Task the time was spent on' }),
    task_name: Type.String({ description: 'Title of the parent task (read-only)' }),
    client_id: Nullable(Type.Integer({ description: 'Client of the parent task (read-only)' })),
    topic_id: Nullable(Type.Integer({ description: 'Topic of the parent task (read-only)' })),
    person_id: Type.Integer({ description: 'Person who spent the time' }),
    start: Timestamp('Start (UTC)'),
    end: Nullable(Timestamp('End (UTC); null while the entry is running')),
    duration: Nullable(
      Type.Integer({
        description: 'Seconds; end minus start unless sent explicitly; null on a running entry until set',
      }),
    ),
    billable: FlagOut('1 when the time is billable'),
    description: Type.String(),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'TimeEntry' },
);
export type TimeEntryRecord = Static<typeof TimeEntry>;

const writable = {
  task_id: Id('Task id; a live task the key can see'),
  person_id: Id("Person id; a member of the company (a plain member's personal key: only its own person)"),
  start: DateTimeIn('Start'),
  end: Nullable(DateTimeIn('End; absent or null leaves the entry running unless duration is sent')),
  duration: Seconds('Seconds; on create without end, end becomes start plus duration'),
  billable: FlagIn('Boolean (or 0/1); default true'),
  description: Type.String({ maxLength: 10000, description: 'Free text' }),
};

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const TimeEntryCreate = Type.Object(
  { ...mapOptional(writable), task_id: writable.task_id, person_id: writable.person_id, start: writable.start },
  { additionalProperties: false, title: 'TimeEntryCreate' },
);
export type TimeEntryCreateBody = Static<typeof TimeEntryCreate>;
export const TimeEntryUpdate = Type.Object(mapOptional(writable), {
  additionalProperties: false,
  title: 'TimeEntryUpdate',
});
export type TimeEntryUpdateBody = Static<typeof TimeEntryUpdate>;

export const TimeEntryBulk = Type.Object(
  {
    entries: Type.Array(TimeEntryCreate, {
      minItems: 1,
      maxItems: BULK_MAX,
      description: `1-${BULK_MAX} time-entry create bodies; all or nothing`,
    }),
  },
  { additionalProperties: false, title: 'TimeEntryBulk' },
);
export type TimeEntryBulkBody = Static<typeof TimeEntryBulk>;

export const TIME_ENTRY_LIST_OPTIONS = {
  sortable: { start: 'te.start', id: 'te.id', created_at: 'te.created_at', updated_at: 'te.updated_at' },
  defaultSort: 'start',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const TIME_ENTRY_FILTERS = [
  'task_id',
  'person_id',
  'client_id',
  'topic_id',
  'billable',
  'start_from',
  'start_to',
] as const;
export const TimeEntryListQuery = listQuery(
  {
    task_id: Type.Optional(Id('Task id')),
    person_id: Type.Optional(Id('Person id')),
    client_id: Type.Optional(Id('Client of the parent task')),
    topic_id: Type.Optional(Id('Topic of the parent task')),
    billable: Type.Optional(Type.String({ pattern: '^(0|1|true|false)$', description: '0/1 or true/false' })),
    start_from: Type.Optional(DateTimeIn('Entries starting at or after this instant')),
    start_to: Type.Optional(DateTimeIn('Entries starting at or before this instant')),
  },
  TIME_ENTRY_LIST_OPTIONS,
);
export type TimeEntryListParams = Static<typeof TimeEntryListQuery>;
