import { randomUUID } from 'node:crypto';
import { assertCompanyManager } from '../../platform/auth.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, notFound } from '../../platform/errors.ts';
import {
  eventName,
  SAMPLE_STAMP,
  type EventAction,
  type EventCatalogue,
  type EventShapes,
} from '../../platform/events.ts';
import { toFlag } from '../../platform/fields.ts';
import { resolveTarget, UnsafeTarget, type Resolver } from '../../platform/ssrf.ts';
import { buildDelivery, newSecret, type DeliveryBody } from './webhooks.payload.ts';
import type {
  DeliveryListParams,
  WebhookCreateBody,
  WebhookListParams,
  WebhookRecord,
  WebhookUpdateBody,
} from './webhooks.schemas.ts';
import * as repo from './webhooks.repository.ts';

/** How far a subscription URL is checked: the same rules deliveries apply. */
export interface UrlPolicy {
  allowPrivate: boolean;
  resolve?: Resolver;
  /** Where a refusal's details go (the request log): the caller is told only that the address is not public. */
  log?: (detail: Record<string, unknown>, message: string) => void;
}

/** Not shown by the spec; generous for integrations, small enough to bound fan-out per event. */
export const MAX_SUBSCRIPTIONS = 100;
const EXAMPLE_URL = 'https://receiver.example.com/webhooks';
const EXAMPLE_SECRET = 'whsec_example_secret_for_testing_signature_checks';

/** Rule 11: admin keys, and only for owners and administrators (the same rule as key management). */
const assertManager = (ctx: Ctx): void => assertCompanyManager(ctx, 'Webhook management');

async function checkUrl(url: string, policy: UrlPolicy): Promise<void> {
  try {
    await resolveTarget(url, policy);
  } catch (error) {
    if (!(error instanceof UnsafeTarget)) throw error;
    if (error.detail) policy.log?.({ reason: error.reason, ...error.detail }, 'webhook URL refused');
    throw domainValidation(error.reason, error.message, { field: 'url' });
  }
}

async function getWebhook(ctx: Ctx, id: number): Promise<WebhookRecord> {
  const webhook = await repo.findWebhook(ctx, id);
  if (!webhook) throw notFound('Webhook subscription');
  return webhook;
}

export function listWebhooks(ctx: Ctx, params: WebhookListParams) {
  assertManager(ctx);
  return repo.listWebhooks(ctx, params);
}

export async function readWebhook(ctx: Ctx, id: number): Promise<WebhookRecord> {
  assertManager(ctx);
  return getWebhook(ctx, id);
}

export async function createWebhook(ctx: Ctx, body: WebhookCreateBody, policy: UrlPolicy) {
  assertManager(ctx);
  await checkUrl(body.url, policy);
  return inTransaction(ctx, async (tx) => {
    await repo.lockCompany(tx);
    if ((await repo.countLive(tx)) >= MAX_SUBSCRIPTIONS) {
      throw new AppError(
        'WEBHOOK_LIMIT_REACHED',
        `A company can hold at most ${MAX_SUBSCRIPTIONS} webhook subscriptions; delete unused ones first`,
        { limit: MAX_SUBSCRIPTIONS },
      );
    }
    const secret = newSecret();
    const id = await repo.insertWebhook(tx, { event: body.webhook, url: body.url, secret });
    return { ...(await getWebhook(tx, id)), secret };
  });
}

export async function updateWebhook(
  ctx: Ctx,
  id: number,
  body: WebhookUpdateBody,
  policy: UrlPolicy,
): Promise<WebhookRecord> {
  assertManager(ctx);
  if (body.url !== undefined) await checkUrl(body.url, policy);
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.lockWebhook(tx, id))) throw notFound('Webhook subscription');
    if (Object.keys(body).length === 0) return getWebhook(tx, id);
    const changes: Parameters<typeof repo.updateWebhook>[2] = {};
    if (body.webhook !== undefined) changes.event = body.webhook;
    if (body.url !== undefined) changes.url = body.url;
    const active = toFlag(body.is_active);
    // Re-enabling starts a clean slate: the failure streak and the disable marks go.
    if (active === 1)
      Object.assign(changes, { is_active: true, failure_count: 0, disabled_at: null, disabled_reason: null });
    if (active === 0) changes.is_active = false;
    await repo.updateWebhook(tx, id, changes);
    return getWebhook(tx, id);
  });
}

export async function deleteWebhook(ctx: Ctx, id: number): Promise<void> {
  assertManager(ctx);
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.lockWebhook(tx, id))) throw notFound('Webhook subscription');
    await repo.softDeleteWebhook(tx, id);
    await repo.closePending(tx, id);
  });
}

/** A new secret at once; the old one signs nothing from this commit on (no overlap). */
export async function rotateSecret(ctx: Ctx, id: number) {
  assertManager(ctx);
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.lockWebhook(tx, id))) throw notFound('Webhook subscription');
    const secret = newSecret();
    await repo.updateWebhook(tx, id, { secret });
    return { ...(await getWebhook(tx, id)), secret };
  });
}

export async function listDeliveries(ctx: Ctx, id: number, params: DeliveryListParams) {
  assertManager(ctx);
  await getWebhook(ctx, id);
  return repo.listDeliveries(ctx, id, params);
}

/** Queues the event again for this subscription; refused while an earlier delivery of it still runs. */
export async function replay(ctx: Ctx, id: number, eventUuid: string) {
  assertManager(ctx);
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.lockWebhook(tx, id))) throw notFound('Webhook subscription');
    const state = await repo.deliveryState(tx, id, eventUuid);
    if (!state) throw notFound('Delivery of this event to this subscription');
    if (state.in_progress) {
      throw new AppError(
        'DELIVERY_IN_PROGRESS',
        'This event is still being delivered (attempts or retries remain); replay it once they are over',
        { event_id: eventUuid.toLowerCase() },
      );
    }
    const queuedAt = await repo.queueReplay(tx, id, Number(state.event_id));
    return { webhook_id: id, event_id: eventUuid.toLowerCase(), status: 'queued' as const, queued_at: queuedAt };
  });
}

const ACTION_TEXT: Record<EventAction, string> = {
  created: 'was created',
  updated: 'was changed',
  deleted: 'was deleted (data carries only {id})',
};

/** The catalogue, read from the modules' declarations that decide what is recorded. */
export function catalogue(events: EventCatalogue) {
  return Object.entries(events).flatMap(([entity, actions]) =>
    actions.map((action) => ({
      event: eventName(entity, action),
      entity,
      action,
      description: `A ${entity.replace('_', ' ')} ${ACTION_TEXT[action]} through API v3${entity === 'task' && action === 'updated' ? ' (status, assignee and date changes included)' : ''}`,
    })),
  );
}

/** What GET /webhooks/example draws on: the modules' sample records and event shapes. */
export interface ExampleSources {
  samples: Readonly<Record<string, Record<string, unknown>>>;
  shapes: EventShapes;
}

/**
 * A sample in the exact delivery shape, made by the live delivery builder: the company's latest
 * recorded event of that name when there is one, a sample record otherwise.
 */
export async function example(ctx: Ctx, event: string, sources: ExampleSources) {
  assertManager(ctx);
  const latest = await repo.latestEvent(ctx, event);
  const [entity] = event.split('.');
  const source = latest
    ? { uuid: randomUUID(), event, occurred_at: latest.occurred_at, data: latest.data }
    : { uuid: randomUUID(), event, occurred_at: SAMPLE_STAMP, data: { ...(sources.samples[entity!] ?? { id: 1 }) } };
  const delivery = buildDelivery({
    event: source,
    shapes: sources.shapes,
    webhookId: 0,
    secret: EXAMPLE_SECRET,
    host: new URL(EXAMPLE_URL).host,
    attempt: 1,
  });
  return { data: JSON.parse(delivery.body) as DeliveryBody, headers: delivery.headers, example_secret: EXAMPLE_SECRET };
}
