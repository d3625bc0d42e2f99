import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Executor } from '../db/database.ts';
import { AppError } from './errors.ts';
import type { Ctx } from './context.ts';

export const MAX_KEY_LENGTH = 200;
/** A 'running' row older than this belongs to a request that died; a retry may take it over. */
const STALE_RUNNING_SECONDS = 300;
const REPLAYED_HEADERS = ['content-type', 'location', 'x-api-preview', 'etag', 'x-service-warning'];

/** JSON with object keys sorted, so the same body sent with its keys in another order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${canonical(request.body)}`)
    .digest('hex');
}

/** The key this request claimed, and when (in microseconds): a takeover renews the stamp, so the claim is no longer ours. */
interface Claim {
  key: string;
  stamp: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: Claim;
  }
}

const CLAIM_STAMP = sql<number>`(extract(epoch from idempotency_keys.created_at) * 1000000)::bigint`;

type Claimed =
  | { claimed: number; existing?: undefined }
  | {
      claimed?: undefined;
      existing: {
        request_hash: string;
        state: string;
        response_status: number | null;
        response_headers: unknown;
        response_body: string | null;
      };
    };

/**
 * Whose keys these are: the API key's, or for a web session its member's, so a retry from a reloaded page, even
 * after signing in again, still replays. The same text as the table's generated `credential` column.
 */
const credentialOf = (ctx: Ctx) => (ctx.key.kind === 'session' ? `member:${ctx.key.personId}` : `key:${ctx.key.id}`);

async function claim(db: Db, request: FastifyRequest, key: string, hash: string, retries = 3): Promise<Claimed> {
  const { companyId, key: credential } = request.ctx;
  const session = credential.kind === 'session';
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      company_id: companyId,
      api_key_id: session ? null : credential.id,
      session_person_id: session ? credential.personId : null,
      key,
      request_hash: hash,
      state: 'running',
      expires_at: sql<string>`now() + interval '24 hours'`,
    })
    .onConflict((oc) =>
      oc
        .columns(['company_id', 'credential', 'key'])
        .doUpdateSet({
          request_hash: hash,
          state: 'running',
          response_status: null,
          response_headers: null,
          response_body: null,
          created_at: sql<string>`now()`,
          expires_at: sql<string>`now() + interval '24 hours'`,
        })
        // Take over only an expired entry, or one whose first request died while running.
        .where(
          sql<boolean>`idempotency_keys.expires_at <= now() or (idempotency_keys.state = 'running' and idempotency_keys.created_at < now() - make_interval(secs => ${STALE_RUNNING_SECONDS}))`,
        ),
    )
    // The claim commits without waiting for its WAL flush (decision 0067): it is visible at once all the same,
    // and the write's own commit flushes it; a claim a crash loses belonged to a write that never committed.
    .returning([CLAIM_STAMP.as('stamp'), sql<string>`set_config('synchronous_commit', 'off', true)`.as('async')])
    .executeTakeFirst();
  if (inserted) return { claimed: inserted.stamp };
  const existing = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'state', 'response_status', 'response_headers', 'response_body'])
    .where('company_id', '=', companyId)
    .where('credential', '=', credentialOf(request.ctx))
    .where('key', '=', key)
    .executeTakeFirst();
  if (existing) return { existing };
  // Gone between the two statements (its request failed and released it): this is a first run after all.
  if (retries > 0) return claim(db, request, key, hash, retries - 1);
  throw new AppError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still being processed');
}

/** Keyed requests since the start, by what the key did (read by the metrics, decision 0059). */
export interface IdempotencyOutcomes {
  /** The key was new (or expired): the request ran. */
  first: number;
  /** The stored answer was replayed. */
  replayed: number;
  /** Refused: the key was reused with another body, or its first request was still running. */
  refused: number;
}

/**
 * Idempotency-Key on covered POSTs, scoped to the API key (or a session's member): the first request runs, a repeat with the same
 * body replays the stored 2xx verbatim, a repeat with another body or during the first run is refused.
 * The unique row in PostgreSQL is the lock, so it holds across any number of instances. The claim is its
 * own autocommitted statement (the lock must be seen at once), committed asynchronously; the outcome is stored by outcomeStatement in
 * the request's transaction, so a committed write is never run a second time.
 */
export function registerIdempotency(app: FastifyInstance, db: Db): IdempotencyOutcomes {
  const outcomes: IdempotencyOutcomes = { first: 0, replayed: 0, refused: 0 };
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !request.ctx || !request.routeOptions.config.idempotent) return;
    const key = Array.isArray(header) ? header[0]! : header;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new AppError('VALIDATION_ERROR', `Idempotency-Key must be 1-${MAX_KEY_LENGTH} characters`, {
        reason: 'INVALID_IDEMPOTENCY_KEY',
      });
    }
    const hash = requestHash(request);
    const { claimed, existing } = await claim(db, request, key, hash);
    if (!existing) {
      outcomes.first++;
      request.idempotencyClaim = { key, stamp: claimed! };
      return;
    }
    if (existing.request_hash !== hash || existing.state === 'running') outcomes.refused++;
    if (existing.request_hash !== hash)
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
    if (existing.state === 'running')
      throw new AppError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still being processed');
    outcomes.replayed++;
    for (const [name, value] of Object.entries(existing.response_headers ?? {})) reply.header(name, value);
    reply.header('Idempotency-Replayed', 'true');
    return reply.code(existing.response_status!).send(existing.response_body);
  });
  return outcomes;
}

const ownClaim = (db: Executor, request: FastifyRequest, claim: Claim) =>
  db
    .updateTable('idempotency_keys')
    .where('company_id', '=', request.ctx.companyId)
    .where('credential', '=', credentialOf(request.ctx))
    .where('key', '=', claim.key)
    .where('state', '=', 'running')
    .where(CLAIM_STAMP, '=', claim.stamp);

/**
 * The statement that stores a 2xx outcome in the write's transaction (tx), so it commits with the write or
 * not at all (the claim stays on the request until the commit, for releaseClaim should it fail); it returns
 * a row only while the claim is still ours. Undefined without a claim.
 */
export function outcomeStatement(tx: Executor, request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const claim = request.idempotencyClaim;
  if (!claim) return undefined;
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return ownClaim(tx, request, claim)
    .set({
      state: 'done',
      response_status: reply.statusCode,
      response_headers: JSON.stringify(headers),
      response_body: typeof payload === 'string' ? payload : payload == null ? '' : String(payload),
    })
    .returning(sql<number>`1`.as('stored'));
}

/** A claim taken over meanwhile (this request looked dead) is no longer ours: the write must not commit. */
export function claimLost(): AppError {
  return new AppError(
    'IDEMPOTENCY_CONFLICT',
    'Another request took this Idempotency-Key over while this one ran; this one was not applied',
  );
}

/** Frees the key of a request that committed nothing, so a retry runs; a claim taken over is left alone. */
export async function releaseClaim(db: Db, request: FastifyRequest): Promise<void> {
  const claim = request.idempotencyClaim;
  if (!claim) return;
  request.idempotencyClaim = undefined;
  await db
    .deleteFrom('idempotency_keys')
    .where('company_id', '=', request.ctx.companyId)
    .where('credential', '=', credentialOf(request.ctx))
    .where('key', '=', claim.key)
    .where('state', '=', 'running')
    .where(CLAIM_STAMP, '=', claim.stamp)
    .execute();
}

export async function purgeExpiredIdempotency(db: Db): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<', sql<string>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
