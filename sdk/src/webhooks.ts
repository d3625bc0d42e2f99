// Verifies a webhook delivery exactly as the spec signs it: X-Service-Signature is `sha256=` and the lowercase hex
// HMAC-SHA256 of `<X-Service-Timestamp>.<raw body>` keyed by the subscription secret; timestamps further than the
// tolerance (300 s) from the receiver's clock are refused, so a captured delivery cannot be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface WebhookEvent<T = Record<string, unknown>> {
  /** The event's UUID, the same on every retry and replay: deduplicate by it. */
  id: string;
  event: string;
  occurred_at: string;
  data: T;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export class WebhookVerificationError extends Error {
  reason: 'missing_header' | 'bad_timestamp' | 'timestamp_out_of_tolerance' | 'bad_signature' | 'bad_body';
  constructor(reason: WebhookVerificationError['reason'], message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  return Array.isArray(found) ? found[0] : found;
}

/**
 * Checks the signature over the raw body (before any JSON parsing) and the timestamp, then returns the parsed
 * event; throws WebhookVerificationError naming the reason otherwise.
 */
export function verifyWebhook<T = Record<string, unknown>>(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: { tolerance?: number; now?: number } = {},
): WebhookEvent<T> {
  const signature = header(headers, 'X-Service-Signature');
  const timestamp = header(headers, 'X-Service-Timestamp');
  if (!signature || !timestamp)
    throw new WebhookVerificationError('missing_header', 'X-Service-Signature and X-Service-Timestamp are required');
  if (!/^\d+$/.test(timestamp))
    throw new WebhookVerificationError('bad_timestamp', 'X-Service-Timestamp is not a Unix time in seconds');
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.tolerance ?? 300;
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `X-Service-Timestamp is more than ${tolerance} s from this clock`,
    );
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  if (a.length !== b.length || !timingSafeEqual(a, b))
    throw new WebhookVerificationError('bad_signature', 'X-Service-Signature does not match the body and secret');
  try {
    return JSON.parse(Buffer.from(rawBody).toString('utf8')) as WebhookEvent<T>;
  } catch {
    throw new WebhookVerificationError('bad_body', 'The signed body is not JSON');
  }
}
