import { sql } from 'kysely';
import type { Tx } from '../../db/database.ts';
import type { AttemptStatus, DeliveryState } from '../../db/schema.ts';
import type { Config } from '../../config.ts';
import type { SendResult } from './http-client.ts';
import { notifyDisabled } from './notify.ts';
import type { Mail } from './mailer.ts';

/** Receivers answering these want no retry; 410 also retires the subscription. */
export const NO_RETRY = new Set([400, 401, 403, 404, 405, 410, 422]);
export const DISABLE_AFTER = 10;

export const TEXT = {
  inactive: 'not delivered: subscription paused/disabled',
  noSecret: 'refused: no signing secret',
  internal: 'not delivered: internal error in the delivery service; it will be retried',
  throttled: (seconds: number) =>
    `not delivered: throttled (held back by pacing for more than ${seconds} s); replay it to send it`,
};

/** What one attempt came to, before it is written down. */
export interface Outcome {
  status: AttemptStatus;
  responseStatus: number | null;
  body: string | null;
  durationMs: number | null;
  /** Whether another attempt may follow (the ladder decides whether one is left). */
  retryable: boolean;
  /** Counts toward the consecutive-failure limit. */
  failure: boolean;
  retire: boolean;
  startedAt: string;
}

export function fromSend(result: Exclude<SendResult, { kind: 'aborted' }>, startedAt: string): Outcome {
  if (result.kind === 'error') {
    return {
      status: 'failed',
      responseStatus: null,
      body: `not delivered: ${result.reason}`,
      durationMs: result.durationMs,
      retryable: true,
      failure: true,
      retire: false,
      startedAt,
    };
  }
  const ok = result.status >= 200 && result.status < 300;
  return {
    status: ok ? 'delivered' : 'failed',
    responseStatus: result.status,
    body: result.text,
    durationMs: result.durationMs,
    retryable: !ok && !NO_RETRY.has(result.status),
    failure: !ok,
    retire: result.status === 410,
    startedAt,
  };
}

/** A reason nothing was sent: final unless retryable is given. */
export const unsent = (
  status: AttemptStatus,
  body: string,
  startedAt: string,
  extra: Partial<Outcome> = {},
): Outcome => ({
  status,
  responseStatus: null,
  body,
  durationMs: null,
  retryable: false,
  failure: false,
  retire: false,
  startedAt,
  ...extra,
});

export interface ClaimedDelivery {
  company_id: string;
  id: number;
  webhook_id: number;
  event_id: number;
  attempt: number;
  slot_at: string | null;
  deferred_since: string | null;
  /** This claim's lease: only its holder may record the outcome. */
  claim_token: string;
}

export interface SubscriptionRow {
  id: number;
  event: string;
  url: string;
  secret: string | null;
  is_active: boolean;
  deleted_at: string | null;
  created_by_person_id: number | null;
}

/** Failure bookkeeping on the subscription; disables it (and says so) on a 410 or the 10th failure in a row. */
async function countOutcome(
  tx: Tx,
  config: Config,
  row: ClaimedDelivery,
  sub: SubscriptionRow,
  outcome: Outcome,
): Promise<{ disabled: boolean; mails: Mail[] }> {
  const where = tx.updateTable('webhooks').where('company_id', '=', row.company_id).where('id', '=', row.webhook_id);
  if (outcome.status === 'delivered') {
    await where.where('failure_count', '<>', 0).set({ failure_count: 0 }).execute();
    return { disabled: false, mails: [] };
  }
  if (!outcome.failure) return { disabled: false, mails: [] };
  const counted = await where
    .set({ failure_count: sql<number>`failure_count + 1`, last_failure_at: sql<string>`clock_timestamp()` })
    .returning(['failure_count', 'is_active'])
    .executeTakeFirstOrThrow();
  if (!counted.is_active || (!outcome.retire && counted.failure_count < DISABLE_AFTER))
    return { disabled: false, mails: [] };
  const reason = outcome.retire ? 'gone' : 'failures';
  await where
    .set({
      is_active: false,
      disabled_at: sql<string>`clock_timestamp()`,
      disabled_reason: reason,
      updated_at: sql<string>`clock_timestamp()`,
    })
    .execute();
  const mails = await notifyDisabled(tx, config, {
    companyId: row.company_id,
    id: sub.id,
    event: sub.event,
    url: sub.url,
    failureCount: counted.failure_count,
    createdByPersonId: sub.created_by_person_id,
    reason,
  });
  return { disabled: true, mails };
}

/** Writes the attempt row, moves the delivery on (done, or the next rung of the retry ladder) and counts it. */
export async function record(
  tx: Tx,
  config: Config,
  row: ClaimedDelivery,
  sub: SubscriptionRow | null,
  outcome: Outcome,
): Promise<Mail[]> {
  const counted = sub ? await countOutcome(tx, config, row, sub, outcome) : { disabled: false, mails: [] };
  const delays = config.webhooks.retryDelaysMs;
  const retry = outcome.retryable && !counted.disabled && row.attempt <= delays.length;
  const clock = await sql<{ now: string; retry_at: string }>`select clock_timestamp() as now,
    clock_timestamp() + make_interval(secs => ${retry ? delays[row.attempt - 1]! / 1000 : 0}) as retry_at`.execute(tx);
  const { now, retry_at } = clock.rows[0]!;
  await tx
    .insertInto('webhook_attempts')
    .values({
      company_id: row.company_id,
      webhook_id: row.webhook_id,
      delivery_id: row.id,
      event_id: row.event_id,
      attempt: row.attempt,
      status: outcome.status,
      response_status: outcome.responseStatus,
      response_body: outcome.body,
      duration_ms: outcome.durationMs,
      next_retry_at: retry ? retry_at : null,
      started_at: outcome.startedAt,
      finished_at: now,
    })
    .execute();
  const state: DeliveryState = retry
    ? 'pending'
    : outcome.status === 'delivered'
      ? 'delivered'
      : outcome.status === 'throttled'
        ? 'throttled'
        : outcome.status === 'not_delivered'
          ? 'not_delivered'
          : 'failed';
  await tx
    .updateTable('webhook_deliveries')
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .set({
      state,
      attempt: retry ? row.attempt + 1 : row.attempt,
      next_attempt_at: retry ? retry_at : now,
      slot_at: null,
      deferred_since: null,
      claim_token: null,
      updated_at: now,
    })
    .execute();
  return counted.mails;
}
