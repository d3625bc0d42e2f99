import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { WebhookConfig } from '../../config.ts';
import { DNS_TIMEOUT_MS } from '../../platform/ssrf.ts';
import type { ClaimedDelivery } from './outcome.ts';

/** What a lease must outlast besides the answer time-out and DNS: loading, pacing, recording, a slow loop. */
const LEASE_MARGIN_MS = 5000;
/** Companies tried per claim, best first, should another worker take the first one's head row meanwhile. */
const CANDIDATES = 4;

/** How long a claim keeps a row out of the queue: longer than any attempt can run. */
export const leaseMs = (config: WebhookConfig, dnsTimeoutMs = DNS_TIMEOUT_MS) =>
  config.timeoutMs + dnsTimeoutMs + LEASE_MARGIN_MS;

/**
 * Companies with a due delivery, the one with the fewest attempts in flight first, then the one whose
 * last claim lies furthest back (never claimed first), then the one waiting longest. A company whose
 * receiver is slow fills the loops only while nobody else waits: the next free loop goes to any other
 * company with work, also when several loops free at the same moment and see no attempt in flight.
 * The walk over companies is a loose index scan (one probe per company with pending rows), so a deep
 * backlog of one company costs nothing.
 */
async function candidates(db: Db): Promise<string[]> {
  const result = await sql<{ company_id: string }>`
    with recursive companies(company_id) as (
      (select company_id from webhook_deliveries where state = 'pending' order by company_id limit 1)
      union all
      select (select d.company_id from webhook_deliveries d
               where d.state = 'pending' and d.company_id > c.company_id order by d.company_id limit 1)
        from companies c where c.company_id is not null
    )
    select c.company_id
      from companies c
      left join webhook_pacing turn on turn.company_id = c.company_id
      cross join lateral (
        select d.next_attempt_at, d.id from webhook_deliveries d
         where d.company_id = c.company_id and d.state = 'pending' and d.next_attempt_at <= now()
         order by d.next_attempt_at, d.id limit 1) head
     order by (select count(*) from webhook_deliveries f
                where f.company_id = c.company_id and f.claim_token is not null
                  and f.state = 'pending' and f.next_attempt_at > now()),
              turn.last_claimed_at nulls first, head.next_attempt_at, head.id
     limit ${CANDIDATES}`.execute(db);
  return result.rows.map((r) => r.company_id);
}

/**
 * Claims the company's longest-due delivery: one short statement marks it with a fresh token, hides
 * it until the lease ends and notes the company's turn. No lock or transaction outlives the statement;
 * a worker that dies mid-attempt leaves the row to come due again when the lease ends, with its
 * attempt number unchanged.
 */
async function claimOf(db: Db, companyId: string, lease: number): Promise<ClaimedDelivery | undefined> {
  // tenant: deliberate SQL — system work: the company is the one claimed for, not a caller's.
  const result = await sql<ClaimedDelivery>`
    with claimed as (
    update webhook_deliveries d
       set claim_token = gen_random_uuid(),
           next_attempt_at = clock_timestamp() + make_interval(secs => ${lease / 1000}::float8)
      from (select company_id, id from webhook_deliveries
             where company_id = ${companyId} and state = 'pending' and next_attempt_at <= now()
             order by next_attempt_at, id limit 1
             for update skip locked) pick
     where d.company_id = pick.company_id and d.id = pick.id
    returning d.company_id, d.id, d.webhook_id, d.event_id, d.attempt, d.slot_at, d.deferred_since, d.claim_token
    ), turn as (
      insert into webhook_pacing (company_id, next_slot_at, last_claimed_at)
      select company_id, clock_timestamp(), clock_timestamp() from claimed
      on conflict (company_id) do update set last_claimed_at = excluded.last_claimed_at
    )
    select * from claimed`.execute(db);
  return result.rows[0];
}

export async function claim(db: Db, lease: number): Promise<ClaimedDelivery | undefined> {
  for (const companyId of await candidates(db)) {
    const row = await claimOf(db, companyId, lease);
    if (row) return row;
  }
  return undefined;
}

/** How long until the next pending delivery falls due (a lease ending counts: its row is then retried). */
export async function nextDue(db: Db): Promise<number | null> {
  const row = await sql<{
    ms: number | null;
  }>`select (extract(epoch from min(next_attempt_at) - clock_timestamp()) * 1000)::float8 as ms
    from webhook_deliveries where state = 'pending' and next_attempt_at > now()`.execute(db);
  const ms = row.rows[0]?.ms;
  return ms === null || ms === undefined ? null : Math.max(0, ms);
}

/**
 * Runs fn in a short transaction while this claim still holds the row (its token, still pending),
 * the row locked for that transaction only. undefined when the claim was lost: the lease ran out
 * and another worker took the row over, or the subscription was deleted meanwhile.
 */
export async function holding<T>(
  db: Db,
  row: ClaimedDelivery,
  fn: (tx: Tx) => Promise<T>,
): Promise<{ held: true; value: T } | { held: false }> {
  return db.transaction().execute(async (tx) => {
    const held = await tx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('company_id', '=', row.company_id)
      .where('id', '=', row.id)
      .where('claim_token', '=', row.claim_token)
      .where('state', '=', 'pending')
      .forUpdate()
      .executeTakeFirst();
    if (!held) return { held: false as const };
    return { held: true as const, value: await fn(tx) };
  });
}

/** Gives the row back to the queue at once, unrecorded and with its attempt number (shutdown). */
export async function release(db: Db, row: ClaimedDelivery): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ claim_token: null, next_attempt_at: sql<string>`now()` })
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .where('claim_token', '=', row.claim_token)
    .execute();
}
