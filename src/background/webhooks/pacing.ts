import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { WebhookConfig } from '../../config.ts';

export type PaceDecision =
  { kind: 'send' } | { kind: 'defer'; until: string; deferredSince: string } | { kind: 'park' };

interface PacedRow {
  company_id: string;
  slot_at: string | null;
  deferred_since: string | null;
}

/**
 * Per-company pacing. Each send takes the company's next slot (slots are 1/rate apart); a row
 * whose slot lies ahead waits for it with the slot reserved, so its turn is kept and its attempt
 * is not consumed. A row that pacing would hold back longer than maxDefer (counted from its first
 * deferral) is parked instead, without taking a slot.
 *
 * Runs on the pool, outside the delivery's transaction: the slot row must not stay locked while
 * an attempt waits for its answer. The database clock decides, so any number of workers agree.
 */
export async function pace(db: Db, row: PacedRow, config: WebhookConfig): Promise<PaceDecision> {
  if (config.rate <= 0 || row.slot_at !== null) return { kind: 'send' };
  const intervalSecs = 1 / config.rate;
  await db
    .insertInto('webhook_pacing')
    .values({ company_id: row.company_id, next_slot_at: sql<string>`clock_timestamp()` })
    .onConflict((oc) => oc.column('company_id').doNothing())
    .execute();
  // tenant: deliberate SQL — pacing is per company, named by the delivery row.
  const result = await sql<{ slot: string; due: boolean; since: string }>`
    update webhook_pacing
       set next_slot_at = greatest(next_slot_at, clock_timestamp()) + make_interval(secs => ${intervalSecs})
     where company_id = ${row.company_id}
       and greatest(next_slot_at, clock_timestamp())
           <= coalesce(${row.deferred_since}::timestamptz, clock_timestamp()) + make_interval(secs => ${config.maxDeferMs / 1000}::float8)
    returning next_slot_at - make_interval(secs => ${intervalSecs}) as slot,
              next_slot_at - make_interval(secs => ${intervalSecs}) <= clock_timestamp() as due,
              coalesce(${row.deferred_since}::timestamptz, clock_timestamp()) as since`.execute(db);
  const reserved = result.rows[0];
  if (!reserved) return { kind: 'park' };
  return reserved.due ? { kind: 'send' } : { kind: 'defer', until: reserved.slot, deferredSince: reserved.since };
}

/** How many more of a company's waiting rows one deferral books slots for, in one go. */
const BACKLOG_BATCH = 200;

/**
 * Reserves up to n consecutive slots at once, never past the park limit of rows deferred now.
 * Returns the first slot and how many were taken.
 */
async function reserveMany(
  db: Db,
  companyId: string,
  n: number,
  config: WebhookConfig,
): Promise<{ base: string; count: number }> {
  const intervalSecs = 1 / config.rate;
  // tenant: deliberate SQL — the slots of the delivery's company.
  const result = await sql<{ base: string; count: number }>`
    with cur as (
      select greatest(next_slot_at, clock_timestamp()) as base, clock_timestamp() as now from webhook_pacing where company_id = ${companyId} for update
    ), k as (
      select base, least(${n}::int, greatest(0, floor(extract(epoch from (now + make_interval(secs => ${config.maxDeferMs / 1000}::float8) - base)) / ${intervalSecs}::float8)::int + 1)) as count from cur
    )
    update webhook_pacing p set next_slot_at = k.base + make_interval(secs => ${intervalSecs}::float8 * k.count) from k
     where p.company_id = ${companyId}
    returning k.base, k.count`.execute(db);
  return result.rows[0] ?? { base: '', count: 0 };
}

/**
 * When a company is busy (a row was just deferred), books slots for the rest of its waiting
 * backlog in one go rather than one claim per row: a burst of one company is then scheduled in a
 * few steps, and other companies' deliveries are not queued behind its bookkeeping.
 */
export async function deferBacklog(tx: Tx, db: Db, companyId: string, config: WebhookConfig): Promise<number> {
  const rows = await tx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('company_id', '=', companyId)
    .where('state', '=', 'pending')
    .where('slot_at', 'is', null)
    .where('next_attempt_at', '<=', sql<string>`now()`)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(BACKLOG_BATCH)
    .forUpdate()
    .skipLocked()
    .execute();
  if (rows.length === 0) return 0;
  const { base, count } = await reserveMany(db, companyId, rows.length, config);
  if (count === 0) return 0;
  const ids = rows.slice(0, count).map((r) => r.id);
  // tenant: deliberate SQL — the deferred rows of the delivery's company.
  await sql`update webhook_deliveries d
       set slot_at = ${base}::timestamptz + make_interval(secs => ${1 / config.rate}::float8 * (v.ord - 1)),
           next_attempt_at = ${base}::timestamptz + make_interval(secs => ${1 / config.rate}::float8 * (v.ord - 1)),
           deferred_since = clock_timestamp(),
           claim_token = null
      from unnest(${ids}::bigint[]) with ordinality as v(id, ord)
     where d.company_id = ${companyId} and d.id = v.id`.execute(tx);
  return count;
}

/**
 * The hard gate at send time: a company's sends start at least 1/rate apart, whatever happened
 * to the schedule (a stalled worker catching up on several slots at once must not burst).
 * Returns when to try again when the turn is not free yet.
 */
export async function takeSendTurn(
  db: Db,
  companyId: string,
  config: WebhookConfig,
): Promise<{ ok: true } | { ok: false; retryAt: string }> {
  if (config.rate <= 0) return { ok: true };
  const intervalSecs = 1 / config.rate;
  const taken = await sql<{ ok: number }>`
    insert into webhook_pacing (company_id, next_slot_at, last_sent_at) values (${companyId}, clock_timestamp(), clock_timestamp())
    on conflict (company_id) do update set last_sent_at = clock_timestamp()
     where webhook_pacing.last_sent_at is null or webhook_pacing.last_sent_at <= clock_timestamp() - make_interval(secs => ${intervalSecs}::float8)
    returning 1 as ok`.execute(db);
  if (taken.rows.length > 0) return { ok: true };
  // tenant: deliberate SQL — the slot of the delivery's company.
  const next = await sql<{ at: string }>`select last_sent_at + make_interval(secs => ${intervalSecs}::float8) as at
    from webhook_pacing where company_id = ${companyId}`.execute(db);
  return { ok: false, retryAt: next.rows[0]?.at ?? new Date().toISOString() };
}
