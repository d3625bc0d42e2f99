import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { Config } from '../../config.ts';
import { resolveTarget, UnsafeTarget, type Resolver } from '../../platform/ssrf.ts';
import { send } from './http-client.ts';
import { flushMail, type Mail, type Mailer } from './mailer.ts';
import { deferBacklog, pace, takeSendTurn } from './pacing.ts';
import { buildDelivery, type OutboundEvent } from '../../modules/webhooks/index.ts';
import type { EventShapes } from '../../platform/events.ts';
import { fromSend, record, TEXT, unsent, type ClaimedDelivery, type Outcome, type SubscriptionRow } from './outcome.ts';
import type { Log } from '../log.ts';

export interface EngineDeps {
  db: Db;
  config: Config;
  log: Log;
  /** How each entity's record is shaped in a delivery body (registry.eventShapes). */
  shapes: EventShapes;
  /** DNS for target checks; tests stage answers with it. */
  resolve?: Resolver;
  mailer?: Mailer;
  /** Aborted on shutdown: an attempt still waiting for its answer is released, not recorded. */
  signal?: AbortSignal;
}

/** Thrown to roll the claim back: the row goes back to the queue with its attempt number unchanged. */
class Released extends Error {}

export type Step = { worked: true } | { worked: false; nextDueMs: number | null };

/**
 * Claims the longest-due delivery, whatever its company (a company's burst is booked into future
 * slots in batches, so it does not hold others back). The row lock lasts until the attempt is
 * recorded, or until the process dies and PostgreSQL drops it.
 */
async function claim(tx: Tx): Promise<ClaimedDelivery | undefined> {
  return tx
    .selectFrom('webhook_deliveries')
    .select(['company_id', 'id', 'webhook_id', 'event_id', 'attempt', 'slot_at', 'deferred_since'])
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', sql<string>`now()`)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

/** How long until the next pending delivery falls due (rows due now but locked are someone else's). */
async function nextDue(tx: Tx): Promise<number | null> {
  const row = await sql<{
    ms: number | null;
  }>`select (extract(epoch from min(next_attempt_at) - clock_timestamp()) * 1000)::float8 as ms
    from webhook_deliveries where state = 'pending' and next_attempt_at > now()`.execute(tx);
  const ms = row.rows[0]?.ms;
  return ms === null || ms === undefined ? null : Math.max(0, ms);
}

async function load(
  tx: Tx,
  row: ClaimedDelivery,
): Promise<{ sub: SubscriptionRow | undefined; event: OutboundEvent | undefined }> {
  const sub = await tx
    .selectFrom('webhooks')
    .select(['id', 'event', 'url', 'secret', 'is_active', 'deleted_at', 'created_by_person_id'])
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.webhook_id)
    .executeTakeFirst();
  const event = await tx
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
    target = await resolveTarget(sub.url, { allowPrivate, resolve: deps.resolve });
  } catch (error) {
    if (!(error instanceof UnsafeTarget)) throw error;
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

/** Everything about one claimed row, inside its transaction. Returns mail to log after commit. */
async function handle(tx: Tx, deps: EngineDeps, row: ClaimedDelivery): Promise<Mail[]> {
  const { sub, event } = await load(tx, row);
  const now = new Date().toISOString();
  if (!sub || sub.deleted_at || !event) {
    await tx
      .updateTable('webhook_deliveries')
      .set({ state: 'not_delivered' })
      .where('company_id', '=', row.company_id)
      .where('id', '=', row.id)
      .execute();
    return [];
  }
  if (!sub.is_active) return record(tx, deps.config, row, sub, unsent('not_delivered', TEXT.inactive, now));
  if (!sub.secret) return record(tx, deps.config, row, sub, unsent('refused', TEXT.noSecret, now));
  const decision = await pace(deps.db, row, deps.config.webhooks);
  if (decision.kind === 'park')
    return record(
      tx,
      deps.config,
      row,
      sub,
      unsent('throttled', TEXT.throttled(deps.config.webhooks.maxDeferMs / 1000), now),
    );
  if (decision.kind === 'defer') {
    await tx
      .updateTable('webhook_deliveries')
      .where('company_id', '=', row.company_id)
      .where('id', '=', row.id)
      .set({ next_attempt_at: decision.until, slot_at: decision.until, deferred_since: decision.deferredSince })
      .execute();
    await deferBacklog(tx, deps.db, row.company_id, deps.config.webhooks);
    return [];
  }
  const turn = await takeSendTurn(deps.db, row.company_id, deps.config.webhooks);
  if (!turn.ok) {
    // Not its turn yet: wait for it without using up an attempt.
    await tx
      .updateTable('webhook_deliveries')
      .where('company_id', '=', row.company_id)
      .where('id', '=', row.id)
      .set({
        next_attempt_at: turn.retryAt,
        slot_at: row.slot_at ?? turn.retryAt,
        deferred_since: row.deferred_since ?? now,
      })
      .execute();
    return [];
  }
  return record(tx, deps.config, row, sub, await attempt(deps, row, { ...sub, secret: sub.secret }, event));
}

/**
 * A failure inside the service (a bug, a lost database connection mid-attempt): the claim was
 * rolled back; write the fixed generic row and move the delivery to its next rung, so a broken
 * row cannot loop. Skipped when another worker holds the row by now.
 */
async function recordInternalFailure(deps: EngineDeps, claimed: ClaimedDelivery): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('webhook_deliveries')
      .select(['company_id', 'id', 'webhook_id', 'event_id', 'attempt', 'slot_at', 'deferred_since'])
      .where('company_id', '=', claimed.company_id)
      .where('id', '=', claimed.id)
      .where('state', '=', 'pending')
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (row)
      await record(
        tx,
        deps.config,
        row,
        null,
        unsent('error', TEXT.internal, new Date().toISOString(), { retryable: true }),
      );
  });
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
  let mails: Mail[] = [];
  try {
    const idle = await deps.db.transaction().execute(async (tx) => {
      claimed = await claim(tx);
      if (!claimed) return { nextDueMs: await nextDue(tx) };
      mails = await handle(tx, deps, claimed);
      return undefined;
    });
    if (idle) return { worked: false, ...idle };
  } catch (error) {
    if (error instanceof Released) return { worked: true };
    deps.log.error(
      { err: (error as Error).message, stack: (error as Error).stack, delivery_id: claimed?.id },
      'webhook delivery failed inside the service',
    );
    // Nothing claimed means the queue itself is unreachable (e.g. the database is down): back off.
    if (!claimed) return { worked: false, nextDueMs: deps.config.webhooks.pollMs };
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
