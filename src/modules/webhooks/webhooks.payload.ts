import { createHmac, randomBytes } from 'node:crypto';
import { eventData, type EventShapes } from '../../platform/events.ts';

/**
 * The one place a delivery's body and headers are made. Live deliveries, retries, replays and
 * GET /webhooks/example all call buildDelivery, so the sample cannot drift from what is sent.
 */

export const USER_AGENT = 'Service-Webhooks/3.0';
export const SECRET_PREFIX = 'whsec_';

/** A recorded event, as the outbox holds it. */
export interface OutboundEvent {
  uuid: string;
  event: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export interface DeliveryBody {
  id: string;
  event: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export const newSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;

/** sha256=<lowercase hex HMAC-SHA256 of "<timestamp>.<raw body>">, keyed by the subscription secret. */
export function sign(secret: string, timestamp: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}

export function deliveryBody(event: OutboundEvent, shapes: EventShapes): DeliveryBody {
  return {
    id: event.uuid,
    event: event.event,
    occurred_at: event.occurred_at,
    data: eventData(event.event, event.data, shapes),
  };
}

export interface DeliveryRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * Body and headers of one attempt. X-Service-Retry-Num carries the attempt number and is sent
 * only on retries (attempt 2 and later).
 */
export function buildDelivery(input: {
  event: OutboundEvent;
  shapes: EventShapes;
  webhookId: number;
  secret: string;
  host: string;
  attempt: number;
  now?: Date;
}): DeliveryRequest {
  const body = JSON.stringify(deliveryBody(input.event, input.shapes));
  const timestamp = String(Math.floor((input.now ?? new Date()).getTime() / 1000));
  const headers: Record<string, string> = {
    Host: input.host,
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': input.event.event,
    'X-Service-Delivery-Id': input.event.uuid,
    'X-Service-Webhook-Id': String(input.webhookId),
    'X-Service-Timestamp': timestamp,
    'X-Service-Signature': sign(input.secret, timestamp, body),
  };
  if (input.attempt > 1) headers['X-Service-Retry-Num'] = String(input.attempt);
  return { body, headers };
}
