import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Config } from '../../config.ts';
import { resolveTarget, UnsafeTarget, type Resolver } from '../../platform/ssrf.ts';
import { send } from './http-client.ts';
import { leaseMs } from './claim.ts';
import type { Log } from '../log.ts';

/**
 * The legacy v1.0 engine's deliveries (docs/decisions/0054): few retries seconds apart, no history (a row is
 * deleted once delivered or given up), never auto-disabled, no pacing. Claims are leases as for v3, so each
 * attempt is made once across any number of servers and workers.
 */
export interface LegacyDeps {
  db: Db;
  config: Config;
  log: Log;
  resolve?: Resolver;
  dnsTimeoutMs?: number;
  signal?: AbortSignal;
}

interface Claimed {
  company_id: string;
  id: string;
  subscription_id: number;
  body: string;
  attempt: number;
  claim_token: string;
  url: string;
  webhook: string;
}

async function claim(deps: LegacyDeps): Promise<Claimed | undefined> {
  const lease = leaseMs(deps.config.webhooks, deps.dnsTimeoutMs);
  const result = await sql<Claimed>`
    update legacy_webhook_deliveries d
       set claim_token = gen_random_uuid(),
           next_attempt_at = clock_timestamp() + make_interval(secs => ${lease / 1000}::float8)
      from (select company_id, id from legacy_webhook_deliveries where next_attempt_at <= now()
             order by next_attempt_at, id limit 1 for update skip locked) pick,
           legacy_webhook_subscriptions s
     where d.company_id = pick.company_id and d.id = pick.id
       and s.company_id = d.company_id and s.id = d.subscription_id
    returning d.company_id, d.id, d.subscription_id, d.body, d.attempt, d.claim_token, s.url, s.webhook`.execute(
    deps.db,
  );
  return result.rows[0];
}

/** The spec's headers: Content-Type, and the signature when the service-wide key is configured. */
export function legacyHeaders(body: string, secret: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (secret) headers['X-Webhook-Signature'] = createHmac('sha256', secret).update(body).digest('hex');
  return headers;
}

type Verdict =
  { kind: 'done' } | { kind: 'retry'; why: string } | { kind: 'give_up'; why: string } | { kind: 'released' };

async function attempt(deps: LegacyDeps, row: Claimed): Promise<Verdict> {
  const { allowPrivate, timeoutMs } = deps.config.webhooks;
  let target;
  try {
    target = await resolveTarget(row.url, { allowPrivate, resolve: deps.resolve, dnsTimeoutMs: deps.dnsTimeoutMs });
  } catch (error) {
    if (!(error instanceof UnsafeTarget)) throw error;
    // Accepted at subscribe time, refused here: a refused address stays refused, so retrying gains nothing.
    const why = `blocked: ${error.message}`;
    return error.reason === 'URL_UNRESOLVABLE' ? { kind: 'retry', why } : { kind: 'give_up', why };
  }
  const headers = { Host: target.host, ...legacyHeaders(row.body, deps.config.webhooks.legacy.secret) };
  const result = await send(target, { body: row.body, headers }, { timeoutMs, signal: deps.signal });
  if (result.kind === 'aborted') return { kind: 'released' };
  if (result.kind === 'response' && result.status >= 200 && result.status < 300) return { kind: 'done' };
  return { kind: 'retry', why: result.kind === 'response' ? `answered ${result.status}` : result.reason };
}

/** Writes the verdict while the claim still holds (its token): delete, schedule the next attempt, or release. */
async function settle(deps: LegacyDeps, row: Claimed, verdict: Verdict): Promise<void> {
  // tenant: deliberate SQL — the claimed row names its company; the claim token is the guard.
  const held = sql<boolean>`company_id = ${row.company_id} and id = ${row.id} and claim_token = ${row.claim_token}`;
  if (verdict.kind === 'released') {
    await sql`update legacy_webhook_deliveries set claim_token = null, next_attempt_at = now() where ${held}`.execute(
      deps.db,
    );
    return;
  }
  const delay = verdict.kind === 'retry' ? deps.config.webhooks.legacy.retryDelaysMs[row.attempt - 1] : undefined;
  if (delay === undefined) {
    await sql`delete from legacy_webhook_deliveries where ${held}`.execute(deps.db);
    if (verdict.kind !== 'done')
      deps.log.warn(
        { company_id: row.company_id, subscription_id: row.subscription_id, attempt: row.attempt, why: verdict.why },
        'legacy v1.0 webhook not delivered: given up',
      );
    return;
  }
  await sql`update legacy_webhook_deliveries
       set attempt = attempt + 1, claim_token = null,
           next_attempt_at = clock_timestamp() + make_interval(secs => ${delay / 1000}::float8)
     where ${held}`.execute(deps.db);
}

/** One claim-attempt-settle cycle; false when nothing was due. */
export async function processLegacyNext(deps: LegacyDeps): Promise<boolean> {
  const row = await claim(deps);
  if (!row) return false;
  let verdict: Verdict;
  try {
    verdict = await attempt(deps, row);
  } catch (error) {
    deps.log.error(
      { err: (error as Error).message, delivery_id: row.id },
      'legacy webhook delivery failed inside the service',
    );
    verdict = { kind: 'retry', why: 'internal error' };
  }
  await settle(deps, row, verdict);
  return true;
}

/** Delivers everything due now in this process (tests and one-off runs); nothing when webhooks are disabled. */
export async function drainLegacyOnce(deps: LegacyDeps, maxSteps = 10_000): Promise<number> {
  if (!deps.config.webhooks.enabled) return 0;
  let steps = 0;
  while (steps < maxSteps && (await processLegacyNext(deps))) steps++;
  return steps;
}
