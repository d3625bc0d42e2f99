import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const Activity = Type.Object(
  {
    id: Type.Integer(),
    entity: Type.String({ description: 'What was written: client, contact, task, time_entry...' }),
    record_id: Nullable(Type.Integer({ description: 'Id of the written record, when known' })),
    action: Type.String({ description: 'created, updated, deleted, or the operation (complete, reopen, rotate...)' }),
    fields: Type.Array(Type.String(), { description: 'Top-level fields the request sent' }),
    api_key_id: Nullable(Type.Integer({ description: 'Key that made the request; null for the web application' })),
    person_id: Nullable(Type.Integer({ description: 'Person the key (or the signed-in member) acts for' })),
    source: Type.Union([Type.Literal('api'), Type.Literal('web')], {
      description: 'api: an API key wrote; web: a member signed in to the web application (a session)',
    }),
    method: Type.String(),
    path: Type.String(),
    request_id: Nullable(Type.String({ description: 'X-Request-Id of the write' })),
    occurred_at: Timestamp('When the write happened (UTC)'),
  },
  { title: 'Activity' },
);
export type ActivityRecord = Static<typeof Activity>;

export const ACTIVITY_LIST_OPTIONS = { sortable: { id: 'a.id', occurred_at: 'a.occurred_at' }, defaultSort: '-id' };
export const ACTIVITY_FILTERS = [
  'entity',
  'record_id',
  'person_id',
  'api_key_id',
  'action',
  'occurred_from',
  'occurred_to',
] as const;
export const ActivityListQuery = listQuery(
  {
    entity: Type.Optional(Type.String({ maxLength: 64 })),
    record_id: Type.Optional(Id('Record id')),
    person_id: Type.Optional(Id('Acting person')),
    api_key_id: Type.Optional(Id('Key that wrote')),
    action: Type.Optional(Type.String({ maxLength: 64 })),
    occurred_from: Type.Optional(Type.String({ format: 'date-time', description: 'At or after (ISO 8601)' })),
    occurred_to: Type.Optional(Type.String({ format: 'date-time', description: 'Before (ISO 8601)' })),
  },
  { ...ACTIVITY_LIST_OPTIONS, cursor: false },
);
export type ActivityListParams = Static<typeof ActivityListQuery>;
