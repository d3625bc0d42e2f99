import { sql } from 'kysely';
import type { AttemptStatus } from '../../db/schema.ts';
import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { nextStamp } from '../../platform/sql.ts';
import { splitList } from '../../platform/fields.ts';
import { scoped, tenantTable, type BaseQuery, type RowChanges, ownCompany } from '../../platform/tenant-table.ts';
import {
  DELIVERY_LIST_OPTIONS,
  WEBHOOK_LIST_OPTIONS,
  type DeliveryListParams,
  type DeliveryRecord,
  type WebhookListParams,
  type WebhookRecord,
} from './webhooks.schemas.ts';

export const webhooks = tenantTable('webhooks', { alias: 'w', softDelete: true });
type Query = BaseQuery<'webhooks', 'w'>;

const STATUS = sql<
  WebhookRecord['status']
>`case when w.is_active then 'active' when w.disabled_at is null then 'paused' else 'disabled' end`;

function project(query: Query) {
  return query.select([
    'w.id',
    'w.event as webhook',
    'w.url',
    'w.is_active',
    STATUS.as('status'),
    'w.failure_count',
    'w.last_failure_at',
    'w.disabled_at',
    'w.disabled_reason',
    'w.created_at',
    'w.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<WebhookListParams>) {
  let q = query;
  if (filters.webhook !== undefined) q = q.where('w.event', '=', filters.webhook);
  // The query schema allows only the listed statuses.
  const statuses = splitList(filters.status) as WebhookRecord['status'][] | undefined;
  if (statuses) q = q.where(STATUS, 'in', statuses);
  return q;
}

export function listWebhooks(ctx: Ctx, params: WebhookListParams) {
  return listPage<WebhookRecord, WebhookListParams>(ctx, {
    listId: 'webhooks',
    params,
    options: WEBHOOK_LIST_OPTIONS,
    idColumn: 'w.id',
    project,
    base: (filters) => applyFilters(webhooks.base(ctx), filters),
  });
}

export async function findWebhook(ctx: Ctx, id: number): Promise<WebhookRecord | undefined> {
  return project(webhooks.base(ctx).where('w.id', '=', id)).executeTakeFirst();
}

/** Locks the subscription for the rest of the transaction (serialises replays and edits). */
export async function lockWebhook(ctx: Ctx, id: number) {
  return webhooks
    .base(ctx)
    .where('w.id', '=', id)
    .select(['w.id', 'w.event', 'w.is_active'])
    .forUpdate()
    .executeTakeFirst();
}

export async function countLive(ctx: Ctx): Promise<number> {
  const row = await webhooks
    .base(ctx)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Serialises creates of one company, so the subscription cap holds under concurrency. */
export async function lockCompany(ctx: Ctx): Promise<void> {
  await ownCompany.select(ctx).select('id').forUpdate().execute();
}

export async function insertWebhook(ctx: Ctx, values: { event: string; url: string; secret: string }): Promise<number> {
  return webhooks.insert(ctx, { ...values, created_by_key_id: ctx.key.id, created_by_person_id: ctx.actor.personId });
}

export async function updateWebhook(ctx: Ctx, id: number, values: RowChanges<'webhooks'>): Promise<void> {
  await webhooks.update(ctx, id, values);
}

/** The soft delete also stops the subscription, in the same statement, so nothing is sent to it meanwhile. */
export async function softDeleteWebhook(ctx: Ctx, id: number): Promise<void> {
  await scoped
    .update(ctx, 'webhooks')
    .set({ deleted_at: sql<string>`now()`, is_active: false, updated_at: nextStamp() })
    .where('id', '=', id)
    .execute();
}

/** Deliveries still waiting for a subscription that is going away are closed, not attempted. */
export async function closePending(ctx: Ctx, webhookId: number): Promise<void> {
  await scoped
    .update(ctx, 'webhook_deliveries')
    .set({ state: 'not_delivered', updated_at: sql<string>`now()` })
    .where('webhook_id', '=', webhookId)
    .where('state', '=', 'pending')
    .execute();
}

function attempts(ctx: Ctx, webhookId: number) {
  return scoped
    .select(ctx, 'webhook_attempts', 'a')
    .innerJoin('webhook_deliveries as d', (j) =>
      j.onRef('d.company_id', '=', 'a.company_id').onRef('d.id', '=', 'a.delivery_id'),
    )
    .innerJoin('events as e', (j) => j.onRef('e.company_id', '=', 'a.company_id').onRef('e.id', '=', 'a.event_id'))
    .where('a.webhook_id', '=', webhookId);
}
type Attempts = ReturnType<typeof attempts>;

function deliveryFilters(query: Attempts, filters: ListFilters<DeliveryListParams>) {
  let q = query;
  // The query schema allows only the listed statuses.
  const statuses = splitList(filters.status) as AttemptStatus[] | undefined;
  if (statuses) q = q.where('a.status', 'in', statuses);
  if (filters.event_id !== undefined) q = q.where('e.uuid', '=', filters.event_id.toLowerCase());
  return q;
}

const projectDelivery = (query: Attempts) =>
  query.select([
    'a.id',
    sql<string>`e.uuid::text`.as('event_id'),
    'e.event',
    'a.attempt',
    'd.replay',
    'a.status',
    'a.response_status',
    'a.response_body',
    'a.duration_ms',
    'a.next_retry_at',
    'a.started_at',
    'a.finished_at',
  ]);

export function listDeliveries(ctx: Ctx, webhookId: number, params: DeliveryListParams) {
  return listPage<DeliveryRecord, DeliveryListParams>(ctx, {
    listId: `webhook-deliveries:${webhookId}`,
    params,
    options: DELIVERY_LIST_OPTIONS,
    idColumn: 'a.id',
    project: projectDelivery,
    base: (filters) => deliveryFilters(attempts(ctx, webhookId), filters),
  });
}

/** The event row when this subscription ever had a delivery of it, with whether one is still running. */
export async function deliveryState(ctx: Ctx, webhookId: number, eventUuid: string) {
  return scoped
    .select(ctx, 'webhook_deliveries', 'd')
    .innerJoin('events as e', (j) => j.onRef('e.company_id', '=', 'd.company_id').onRef('e.id', '=', 'd.event_id'))
    .select(['e.id as event_id', sql<boolean>`bool_or(d.state = 'pending')`.as('in_progress')])
    .where('d.webhook_id', '=', webhookId)
    .where('e.uuid', '=', eventUuid.toLowerCase())
    .groupBy('e.id')
    .executeTakeFirst();
}

export async function queueReplay(ctx: Ctx, webhookId: number, eventId: number): Promise<string> {
  const row = await scoped
    .insert(ctx, 'webhook_deliveries', [{ webhook_id: webhookId, event_id: eventId, replay: true }])
    .returning('created_at')
    .executeTakeFirstOrThrow();
  return row.created_at;
}

/** The company's latest recorded event of this name (the example prefers a real shape). */
export async function latestEvent(ctx: Ctx, event: string) {
  return scoped
    .select(ctx, 'events', 'e')
    .select(['e.uuid', 'e.event', 'e.occurred_at', 'e.data'])
    .where('e.event', '=', event)
    .orderBy('e.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
