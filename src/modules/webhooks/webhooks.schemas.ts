import { Type, type Static } from 'typebox';
import { EnumList, FlagIn, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'Public https URL the events are POSTed to' });
const EVENT_UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const WEBHOOK_STATUSES = ['active', 'paused', 'disabled'] as const;

export const Webhook = Type.Object(
  {
    id: Type.Integer(),
    webhook: Type.String({
      description: 'The event this subscription delivers, e.g. client.created (one event per subscription)',
    }),
    url: Type.String({ description: 'Where deliveries are POSTed' }),
    is_active: Type.Boolean({ description: 'false while paused (PATCH is_active false) or disabled by the service' }),
    status: Type.Union(
      WEBHOOK_STATUSES.map((s) => Type.Literal(s)),
      { description: 'active; paused (by you); disabled (by the service after 10 failures in a row, or a 410 answer)' },
    ),
    failure_count: Type.Integer({ description: 'Failed attempts in a row; a success or re-enabling clears it' }),
    last_failure_at: Nullable(Timestamp('Last failed attempt')),
    disabled_at: Nullable(Timestamp('When the service disabled the subscription')),
    disabled_reason: Nullable(
      Type.Union([Type.Literal('failures'), Type.Literal('gone')], {
        description: 'failures: 10 in a row; gone: the receiver answered 410',
      }),
    ),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Webhook' },
);
export type WebhookRecord = Static<typeof Webhook>;

export const WebhookWithSecret = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({
      description: 'Signing secret (<SIGNING_SECRET>). Shown only in this response: store it now',
    }),
  },
  { title: 'WebhookWithSecret' },
);

export const WEBHOOK_LIST_OPTIONS = {
  sortable: { id: 'w.id', created_at: 'w.created_at' },
  defaultSort: 'id',
  cursor: false,
};
export const WEBHOOK_FILTERS = ['webhook', 'status'] as const;

/**
 * The schemas that name events. The names come from the modules' declarations (registry.eventNames),
 * so these are built when the routes plugin runs, never at import time.
 */
export function eventSchemas(eventNames: readonly string[]) {
  const EventName = (description: string) =>
    Type.Union(
      eventNames.map((name) => Type.Literal(name)),
      { description },
    );
  return {
    WebhookCreate: Type.Object(
      {
        webhook: EventName('Event to deliver; see GET /webhooks/events'),
        url: Url,
      },
      { additionalProperties: false, title: 'WebhookCreate' },
    ),
    WebhookUpdate: Type.Object(
      {
        webhook: Type.Optional(EventName('Event to deliver')),
        url: Type.Optional(Url),
        is_active: Type.Optional(
          FlagIn('false pauses; true re-enables a paused or disabled subscription and clears failure_count'),
        ),
      },
      { additionalProperties: false, title: 'WebhookUpdate' },
    ),
    WebhookListQuery: listQuery(
      {
        webhook: Type.Optional(EventName('Only subscriptions of this event')),
        status: Type.Optional(EnumList(WEBHOOK_STATUSES, 'Status filter')),
      },
      WEBHOOK_LIST_OPTIONS,
    ),
    ExampleQuery: Type.Object({ event: EventName('Event to show') }, { additionalProperties: false }),
  };
}
type EventSchemas = ReturnType<typeof eventSchemas>;
export type WebhookCreateBody = Static<EventSchemas['WebhookCreate']>;
export type WebhookUpdateBody = Static<EventSchemas['WebhookUpdate']>;
export type WebhookListParams = Static<EventSchemas['WebhookListQuery']>;

export const ATTEMPT_STATUSES = [
  'delivered',
  'failed',
  'blocked',
  'refused',
  'not_delivered',
  'throttled',
  'error',
] as const;

export const Delivery = Type.Object(
  {
    id: Type.Integer({ description: 'Log row id' }),
    event_id: Type.String({
      description: 'The event (UUID): the id of the delivered body and X-Service-Delivery-Id; replay by it',
    }),
    event: Type.String({ description: 'Event name' }),
    attempt: Type.Integer({
      description: '1 for the first attempt; retries count on (X-Service-Retry-Num carries it)',
    }),
    replay: Type.Boolean({ description: 'true for attempts of a replay' }),
    status: Type.Union(
      ATTEMPT_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          'delivered (2xx); failed (other answer, time-out or connection error); blocked (unsafe address); refused (no signing secret); not_delivered (subscription paused/disabled); throttled (parked by pacing, replayable); error (inside the service)',
      },
    ),
    response_status: Nullable(
      Type.Integer({ description: 'HTTP status the receiver answered; null when nothing was answered' }),
    ),
    response_body: Nullable(
      Type.String({ description: 'First 2000 characters of the answer, or why nothing was sent' }),
    ),
    duration_ms: Nullable(Type.Integer({ description: 'Time from sending to the answer' })),
    next_retry_at: Nullable(Timestamp('When the next attempt is due; null when none follows')),
    started_at: Timestamp('Attempt start'),
    finished_at: Timestamp('Attempt end'),
  },
  { title: 'WebhookDelivery' },
);
export type DeliveryRecord = Static<typeof Delivery>;

export const DELIVERY_LIST_OPTIONS = { sortable: { id: 'a.id' }, defaultSort: '-id', cursor: false };
export const DELIVERY_FILTERS = ['status', 'event_id'] as const;
export const DeliveryListQuery = listQuery(
  {
    status: Type.Optional(EnumList(ATTEMPT_STATUSES, 'Status filter')),
    event_id: Type.Optional(Type.String({ pattern: EVENT_UUID, description: 'Attempts of this event' })),
  },
  DELIVERY_LIST_OPTIONS,
);
export type DeliveryListParams = Static<typeof DeliveryListQuery>;

export const ReplayParams = Type.Object({
  webhook_id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Subscription id' }),
  event_id: Type.String({ pattern: EVENT_UUID, description: 'Event id (UUID) from the delivery log' }),
});

export const ReplayQueued = Type.Object(
  {
    webhook_id: Type.Integer(),
    event_id: Type.String(),
    status: Type.Literal('queued'),
    queued_at: Timestamp('When the replay was queued'),
  },
  { title: 'WebhookReplay' },
);

export const CatalogueEntry = Type.Object(
  {
    event: Type.String({ description: 'Name to subscribe with' }),
    entity: Type.String(),
    action: Type.String(),
    description: Type.String(),
  },
  { title: 'WebhookEvent' },
);

export const DeliveryBodySchema = Type.Object(
  {
    id: Type.String({ description: 'Event UUID: the same on every retry and replay; deduplicate by it' }),
    event: Type.String(),
    occurred_at: Timestamp('When the change happened'),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The record; {id} only for deleted events; the lean client (no contacts) for client events',
    }),
  },
  { title: 'WebhookDeliveryBody' },
);

export const Example = Type.Object(
  {
    data: DeliveryBodySchema,
    headers: Type.Record(Type.String(), Type.String(), {
      description: 'Headers the delivery carries (signed with example_secret)',
    }),
    example_secret: Type.String({ description: 'Secret the sample is signed with, to test signature checks against' }),
  },
  { title: 'WebhookExample' },
);
