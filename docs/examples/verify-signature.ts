import { createHmac, timingSafeEqual } from 'node:crypto';

/** Deliveries older or newer than this (seconds) are refused: a replayed capture cannot be reused. */
export const TOLERANCE_SECONDS = 300;

/**
 * Checks a webhook delivery. `rawBody` must be the exact bytes received, before any JSON parsing;
 * `signature` and `timestamp` are the X-Service-Signature and X-Service-Timestamp headers.
 */
export function verifySignature(
  rawBody: Buffer | string,
  signature: string | undefined,
  timestamp: string | undefined,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!signature || !timestamp || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  return a.length === b.length && timingSafeEqual(a, b);
}
