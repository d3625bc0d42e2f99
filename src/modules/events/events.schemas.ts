import { Type, type Static } from 'typebox';
import { EnumList, Id, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const FeedEvent = Type.Object(
  {
    id: Type.String({
      description: 'Event UUID: the same id its webhook deliveries carry (body id, X-Service-Delivery-Id)',
    }),
    event: Type.String({ description: 'Event name, e.g. client.deleted' }),
    entity: Type.String(),
    action: Type.String({ description: 'created, updated or deleted' }),
    record_id: Type.Integer({ description: 'Id of the changed record' }),
    occurred_at: Timestamp('When the change happened'),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Exactly what a webhook delivery carries: {id} only for deletions',
    }),
  },
  { title: 'FeedEvent' },
);
export type FeedEventRecord = Static<typeof FeedEvent>;

/** Feed order: commit-safe (transaction, then id); no other sort is offered. */
// The feed is read by following next_cursor (a stable addition; decision 0050).
export const FEED_OPTIONS = { defaultSort: 'position', sortable: { position: 'e.xact_id' }, cursor: true };
export const FEED_FILTERS = ['event', 'record_id', 'occurred_from', 'occurred_to'] as const;

/** The feed's query; its event filter takes the names the modules declare (registry.eventNames), so it is built by the routes plugin. */
export const feedQuery = (eventNames: readonly string[]) =>
  listQuery(
    {
      event: Type.Optional(EnumList(eventNames, 'Only these events')),
      record_id: Type.Optional(Id('Only events of this record')),
      occurred_from: Type.Optional(Type.String({ format: 'date-time', description: 'At or after (ISO 8601)' })),
      occurred_to: Type.Optional(Type.String({ format: 'date-time', description: 'Before (ISO 8601)' })),
    },
    { defaultLimit: 50 },
  );
/** The feed's query as the route passes it (the event names are checked by the schema, typed as text here). */
export type FeedListParams = Static<ReturnType<typeof feedQuery>>;
