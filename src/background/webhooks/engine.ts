import type { Db } from '../../db/database.ts';
import type { Config } from '../../config.ts';
import { resolveTarget, UnsafeTarget, type Resolver } from '../../platform/ssrf.ts';
import { send } from './http-client.ts';
import { flushMail, type Mail, type Mailer } from './mailer.ts';
import { deferBacklog, pace, takeSendTurn } from './pacing.ts';
import { buildDelivery, type OutboundEvent } from '../../modules/webhooks/index.ts';
import type { EventShapes } from '../../platform/events.ts';
import { fromSend, record, TEXT, unsent, type ClaimedDelivery, type Outcome, type SubscriptionRow } from './outcome.ts';
import { claim, holding, leaseMs, nextDue, release } from './claim.ts';
import type { Log } from '../log.ts';

export interface EngineDeps {
  db: Db;
  config: Config;
  log: Log;
  /** How each entity's record is shaped in a delivery body (registry.eventShapes). */
  shapes: EventShapes;
  /** DNS for target checks; tests stage answers with it. */
  resolve?: Resolver;
  /** The DNS time limit (DNS_TIMEOUT_MS unless a test shortens it). */
  dnsTimeoutMs?: number;
  mailer?: Mailer;
  /** Aborted on shutdown: an attempt still waiting for its answer is released, not recorded. */
  signal?: AbortSignal;
}

/** Thrown when shutdown cuts an attempt: the row goes back to the queue with its attempt number unchanged. */
class Released extends Error {}

export type Step = { worked: true } | { worked: false; nextDueMs: number | null };

async function load(
  db: Db,
  row: ClaimedDelivery,
): Promise<{ sub: SubscriptionRow | undefined; event: OutboundEvent | undefined }> {
  const sub = await db
    .selectFrom('webhooks')
    .select(['id', 'event', 'url', 'secret', 'is_active', 'deleted_at', 'created_by_person_id'])
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.webhook_id)
    .executeTakeFirst();
  const event = await db
    .selectFrom('events')
    .select(['uuid', 'event', 'occurred_at', 'data'])
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.event_id)
    .executeTakeFirst();
  return { sub, event };
}

/** The attempt itself: re-check the target, connect to the address checked, send, classify. */
async function attempt(
  deps: EngineDeps,
  row: ClaimedDelivery,
  sub: SubscriptionRow & { secret: string },
  event: OutboundEvent,
): Promise<Outcome> {
  const startedAt = new Date().toISOString();
  const { allowPrivate, timeoutMs } = deps.config.webhooks;
  let target;
  try {
    target = await resolveTarget(sub.url, { allowPrivate, resolve: deps.resolve, dnsTimeoutMs: deps.dnsTimeoutMs });
  } catch (error) {
    if (!(error instanceof UnsafeTarget)) throw error;
    // The delivery log is read by the company: what the name resolved to goes to the service log only.
    if (error.detail)
      deps.log.warn(
        { company_id: row.company_id, webhook_id: sub.id, delivery_id: row.id, reason: error.reason, ...error.detail },
        'webhook target refused at delivery',
      );
    const status = error.reason === 'URL_UNRESOLVABLE' ? 'failed' : 'blocked';
    const body = status === 'blocked' ? `blocked: ${error.message}` : `not delivered: ${error.message}`;
    return unsent(status, body, startedAt, { retryable: true, failure: true });
  }
  const request = buildDelivery({
    event,
    shapes: deps.shapes,
    webhookId: sub.id,
    secret: sub.secret,
    host: target.host,
    attempt: row.attempt,
  });
  const result = await send(target, request, { timeoutMs, signal: deps.signal });
  if (result.kind === 'aborted') throw new Released('shutting down');
  return fromSend(result, startedAt);
}

/** Writes the outcome if this claim still holds the row; returns mail to send after commit. */
async function finish(
  deps: EngineDeps,
  row: ClaimedDelivery,
  sub: SubscriptionRow | null,
  outcome: Outcome,
): Promise<Mail[]> {
  const done = await holding(deps.db, row, (tx) => record(tx, deps.config, row, sub, outcome));
  if (done.held) return done.value;
  // Another worker owns the row by now (or it was closed): its own attempt will be the recorded one.
  deps.log.warn(
    { company_id: row.company_id, delivery_id: row.id, attempt: row.attempt, status: outcome.status },
    'webhook attempt not recorded: the claim was lost',
  );
  return [];
}

/** Puts the row back in the queue for later (pacing), without using up an attempt. */
async function postpone(
  deps: EngineDeps,
  row: ClaimedDelivery,
  changes: { next_attempt_at: string; slot_at: string | null; deferred_since: string | null },
  backlog = false,
): Promise<void> {
  await holding(deps.db, row, async (tx) => {
    await tx
      .updateTable('webhook_deliveries')
      .where('company_id', '=', row.company_id)
      .where('id', '=', row.id)
      .set({ ...changes, claim_token: null })
      .execute();
    if (backlog) await deferBacklog(tx, deps.db, row.company_id, deps.config.webhooks);
  });
}

/**
 * Everything about one claimed row. No transaction is open while the receiver is called: the claim
 * is a lease, and each decision is written in its own short transaction by the lease holder.
 */
async function handle(deps: EngineDeps, row: ClaimedDelivery): Promise<Mail[]> {
  const { sub, event } = await load(deps.db, row);
  const now = new Date().toISOString();
  if (!sub || sub.deleted_at || !event) {
    await holding(deps.db, row, (tx) =>
      tx
        .updateTable('webhook_deliveries')
        .set({ state: 'not_delivered', claim_token: null })
        .where('company_id', '=', row.company_id)
        .where('id', '=', row.id)
        .execute(),
    );
    return [];
  }
  if (!sub.is_active) return finish(deps, row, sub, unsent('not_delivered', TEXT.inactive, now));
  if (!sub.secret) return finish(deps, row, sub, unsent('refused', TEXT.noSecret, now));
  const decision = await pace(deps.db, row, deps.config.webhooks);
  if (decision.kind === 'park')
    return finish(deps, row, sub, unsent('throttled', TEXT.throttled(deps.config.webhooks.maxDeferMs / 1000), now));
  if (decision.kind === 'defer') {
    const { until, deferredSince } = decision;
    await postpone(deps, row, { next_attempt_at: until, slot_at: until, deferred_since: deferredSince }, true);
    return [];
  }
  const turn = await takeSendTurn(deps.db, row.company_id, deps.config.webhooks);
  if (!turn.ok) {
    // Not its turn yet: wait for it without using up an attempt.
    await postpone(deps, row, {
      next_attempt_at: turn.retryAt,
      slot_at: row.slot_at ?? turn.retryAt,
      deferred_since: row.deferred_since ?? now,
    });
    return [];
  }
  return finish(deps, row, sub, await attempt(deps, row, { ...sub, secret: sub.secret }, event));
}

/**
 * A failure inside the service (a bug, a lost database connection mid-attempt): write the fixed
 * generic row and move the delivery to its next rung, so a broken row cannot loop. Should even that
 * fail, the lease runs out and the row is tried again.
 */
async function recordInternalFailure(deps: EngineDeps, claimed: ClaimedDelivery): Promise<void> {
  await holding(deps.db, claimed, (tx) =>
    record(
      tx,
      deps.config,
      claimed,
      null,
      unsent('error', TEXT.internal, new Date().toISOString(), { retryable: true }),
    ),
  );
}

/** Logs (no SMTP) or sends the mail a committed step queued. */
async function afterCommit(deps: EngineDeps, mails: Mail[]): Promise<void> {
  if (mails.length === 0) return;
  if (!deps.mailer) {
    for (const mail of mails)
      deps.log.warn(
        { company_id: mail.companyId, to: mail.to, subject: mail.subject, body: mail.text },
        'mail kept in mail_outbox (no SMTP_URL configured)',
      );
    return;
  }
  await flushMail(deps.db, deps.mailer, deps.log).catch((error) =>
    deps.log.error({ err: (error as Error).message }, 'flushing mail failed'),
  );
}

/** One claim-attempt-record cycle. */
export async function processNext(deps: EngineDeps): Promise<Step> {
  let claimed: ClaimedDelivery | undefined;
  try {
    claimed = await claim(deps.db, leaseMs(deps.config.webhooks, deps.dnsTimeoutMs));
    if (!claimed) return { worked: false, nextDueMs: await nextDue(deps.db) };
  } catch (error) {
    // The queue itself is unreachable (e.g. the database is down): back off.
    deps.log.error({ err: (error as Error).message }, 'webhook delivery: claiming failed');
    return { worked: false, nextDueMs: deps.config.webhooks.pollMs };
  }
  let mails: Mail[];
  try {
    mails = await handle(deps, claimed);
  } catch (error) {
    if (error instanceof Released) {
      await release(deps.db, claimed).catch(() => {});
      return { worked: true };
    }
    deps.log.error(
      { err: (error as Error).message, stack: (error as Error).stack, delivery_id: claimed.id },
      'webhook delivery failed inside the service',
    );
    await recordInternalFailure(deps, claimed).catch(() => {});
    return { worked: true };
  }
  await afterCommit(deps, mails);
  return { worked: true };
}

/**
 * Delivers everything that is due now, in this process, and returns how many rows it handled.
 * For tests and one-off runs; nothing when webhooks are disabled.
 */
export async function drainOnce(deps: EngineDeps, maxSteps = 10_000): Promise<number> {
  if (!deps.config.webhooks.enabled) return 0;
  let steps = 0;
  while (steps < maxSteps && (await processNext(deps)).worked) steps++;
  return steps;
}
