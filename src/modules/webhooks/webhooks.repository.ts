import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { nextStamp } from '../../platform/sql.ts';
import { splitList } from '../../platform/fields.ts';
import { DELIVERY_LIST_OPTIONS, WEBHOOK_LIST_OPTIONS, type DeliveryRecord, type WebhookRecord } from './webhooks.schemas.ts';

function base(ctx: Ctx) {
  return ctx.db.selectFrom('webhooks as w').where('w.company_id', '=', ctx.companyId).where('w.deleted_at', 'is', null);
}

const STATUS = sql<WebhookRecord['status']>`case when w.is_active then 'active' when w.disabled_at is null then 'paused' else 'disabled' end`;

function project(query: ReturnType<typeof base>) {
  return query.select([
    'w.id', 'w.event as webhook', 'w.url', 'w.is_active', STATUS.as('status'), 'w.failure_count', 'w.last_failure_at', 'w.disabled_at',
    'w.disabled_reason', 'w.created_at', 'w.updated_at',
  ]);
}

export async function listWebhooks(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'webhooks', params, WEBHOOK_LIST_OPTIONS);
  let q = base(ctx);
  if (filters.webhook !== undefined) q = q.where('w.event', '=', filters.webhook as string);
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where(STATUS, 'in', statuses as never);
  return paginate<WebhookRecord>(ctx, { listId: 'webhooks', base: q, idColumn: 'w.id', project: project as never, options: WEBHOOK_LIST_OPTIONS, params, filters, sort, after });
}

export async function findWebhook(ctx: Ctx, id: number): Promise<WebhookRecord | undefined> {
  return project(base(ctx).where('w.id', '=', id)).executeTakeFirst();
}

/** Locks the subscription for the rest of the transaction (serialises replays and edits). */
export async function lockWebhook(ctx: Ctx, id: number) {
  return base(ctx).where('w.id', '=', id).select(['w.id', 'w.event', 'w.is_active']).forUpdate().executeTakeFirst();
}

export async function countLive(ctx: Ctx): Promise<number> {
  const row = await base(ctx).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Serialises creates of one company, so the subscription cap holds under concurrency. */
export async function lockCompany(ctx: Ctx): Promise<void> {
  await ctx.db.selectFrom('companies').select('id').where('id', '=', ctx.companyId).forUpdate().execute();
}

export async function insertWebhook(ctx: Ctx, values: { event: string; url: string; secret: string }): Promise<number> {
  const row = await ctx.db.insertInto('webhooks').values({
    ...values, company_id: ctx.companyId, created_by_key_id: ctx.key.id, created_by_person_id: ctx.actor.personId,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

type WebhookChanges = Partial<{ event: string; url: string; secret: string; is_active: boolean; failure_count: number; disabled_at: null; disabled_reason: null }>;

export async function updateWebhook(ctx: Ctx, id: number, values: WebhookChanges): Promise<void> {
  await ctx.db.updateTable('webhooks').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteWebhook(ctx: Ctx, id: number): Promise<void> {
  await ctx.db.updateTable('webhooks').set({ deleted_at: sql<string>`now()`, is_active: false, updated_at: nextStamp() })
    .where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

/** Deliveries still waiting for a subscription that is going away are closed, not attempted. */
export async function closePending(ctx: Ctx, webhookId: number): Promise<void> {
  await ctx.db.updateTable('webhook_deliveries').set({ state: 'not_delivered', updated_at: sql<string>`now()` })
    .where('company_id', '=', ctx.companyId).where('webhook_id', '=', webhookId).where('state', '=', 'pending').execute();
}

function attempts(ctx: Ctx, webhookId: number) {
  return ctx.db.selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', (j) => j.onRef('d.company_id', '=', 'a.company_id').onRef('d.id', '=', 'a.delivery_id'))
    .innerJoin('events as e', (j) => j.onRef('e.company_id', '=', 'a.company_id').onRef('e.id', '=', 'a.event_id'))
    .where('a.company_id', '=', ctx.companyId).where('a.webhook_id', '=', webhookId);
}

export async function listDeliveries(ctx: Ctx, webhookId: number, params: object) {
  const { filters, sort, after } = resolveList(ctx, `webhook-deliveries:${webhookId}`, params, DELIVERY_LIST_OPTIONS);
  let q = attempts(ctx, webhookId);
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where('a.status', 'in', statuses as never);
  if (filters.event_id !== undefined) q = q.where('e.uuid', '=', (filters.event_id as string).toLowerCase());
  const project = (query: typeof q) => query.select([
    'a.id', sql<string>`e.uuid::text`.as('event_id'), 'e.event', 'a.attempt', 'd.replay', 'a.status', 'a.response_status', 'a.response_body',
    'a.duration_ms', 'a.next_retry_at', 'a.started_at', 'a.finished_at',
  ]);
  return paginate<DeliveryRecord>(ctx, {
    listId: `webhook-deliveries:${webhookId}`, base: q, idColumn: 'a.id', project: project as never, options: DELIVERY_LIST_OPTIONS, params, filters, sort, after,
  });
}

/** The event row when this subscription ever had a delivery of it, with whether one is still running. */
export async function deliveryState(ctx: Ctx, webhookId: number, eventUuid: string) {
  return ctx.db.selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', (j) => j.onRef('e.company_id', '=', 'd.company_id').onRef('e.id', '=', 'd.event_id'))
    .select(['e.id as event_id', sql<boolean>`bool_or(d.state = 'pending')`.as('in_progress')])
    .where('d.company_id', '=', ctx.companyId).where('d.webhook_id', '=', webhookId).where('e.uuid', '=', eventUuid.toLowerCase())
    .groupBy('e.id').executeTakeFirst();
}

export async function queueReplay(ctx: Ctx, webhookId: number, eventId: number): Promise<string> {
  const row = await ctx.db.insertInto('webhook_deliveries').values({ company_id: ctx.companyId, webhook_id: webhookId, event_id: eventId, replay: true })
    .returning('created_at').executeTakeFirstOrThrow();
  return row.created_at;
}

/** The company's latest recorded event of this name (the example prefers a real shape). */
export async function latestEvent(ctx: Ctx, event: string) {
  return ctx.db.selectFrom('events').select(['uuid', 'event', 'occurred_at', 'data'])
    .where('company_id', '=', ctx.companyId).where('event', '=', event).orderBy('id', 'desc').limit(1).executeTakeFirst();
}
