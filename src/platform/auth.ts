import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Db, Executor } from '../db/database.ts';
import { AppError } from './errors.ts';
import type { Actor, Ctx, CompanyInfo } from './context.ts';
import { hashKey, KEY_PREFIX } from './keys.ts';
import { addressAllowed } from './network.ts';
import type { KeyCache } from './key-cache.ts';
import { firstRecord } from './sql.ts';
import { companyJson } from './system-actor.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LAST_USED_RESOLUTION_MS = 60_000;

export function companyIdFrom(request: FastifyRequest): string {
  const raw = request.headers['x-service-company'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '')
    throw new AppError('MISSING_COMPANY', 'The X-Service-Company header is required');
  if (!UUID.test(value.trim()))
    throw new AppError('INVALID_COMPANY', 'X-Service-Company must be a company UUID (8-4-4-4-12 hex)');
  return value.trim().toLowerCase();
}

export interface KeyRow {
  id: number;
  kind: 'integration' | 'personal';
  scopes: string[];
  person_id: number | null;
  is_active: boolean;
  expires_at: string | null;
  grace_expires_at: string | null;
  ip_allowlist: string[] | null;
  last_used_at: string | null;
  member_role: 'member' | 'admin' | 'owner' | null;
  member_status: string | null;
  company: CompanyInfo;
}

/** The key's row, from the cache when it is listening for changes, else from the database (and then cached). */
async function lookupKey(
  db: Db,
  cache: KeyCache<KeyRow> | undefined,
  companyId: string,
  fullKey: string,
): Promise<KeyRow | undefined> {
  const hash = hashKey(fullKey);
  const cached = await cache?.getFresh(companyId, hash);
  if (cached) return cached;
  const generation = cache?.generation(companyId) ?? 0;
  const row = await findKey(db, companyId, { hash });
  if (row && cache) cache.set(companyId, hash, row, generation);
  return row;
}

async function findKey(
  db: Executor,
  companyId: string,
  match: { hash: string } | { id: number },
): Promise<KeyRow | undefined> {
  return firstRecord<KeyRow>(
    db
      .selectFrom('api_keys as k')
      .innerJoin('companies as c', 'c.id', 'k.company_id')
      .leftJoin('members as m', (join) =>
        join.onRef('m.company_id', '=', 'k.company_id').onRef('m.person_id', '=', 'k.person_id'),
      )
      .select([
        'k.id',
        'k.kind',
        'k.scopes',
        'k.person_id',
        'k.is_active',
        'k.expires_at',
        'k.grace_expires_at',
        'k.ip_allowlist',
        'k.last_used_at',
        sql<'member' | 'admin' | 'owner' | null>`m.role`.as('member_role'),
        'm.status as member_status',
        companyJson().as('company'),
      ])
      .where('k.company_id', '=', companyId)
      .where((eb) => ('hash' in match ? eb('k.key_hash', '=', match.hash) : eb('k.id', '=', match.id))),
  );
}

const unauthorized = (message: string) => new AppError('UNAUTHORIZED', message);

/** Why a key may no longer make requests; each reader words it for its own audience. */
export type KeyUnusable = 'revoked' | 'expired' | 'grace_over' | 'member_inactive';

type KeyState = Pick<KeyRow, 'is_active' | 'expires_at' | 'grace_expires_at' | 'kind' | 'member_status'>;

/**
 * The one usability rule of a key, in the spec's order: the request pipeline applies it at every request,
 * and a job applies it to the key that started it before each chunk, so a job stops when its key could no
 * longer make the request that started it.
 */
export function keyUnusable(key: KeyState, now = Date.now()): KeyUnusable | null {
  if (!key.is_active) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= now) return 'expired';
  if (key.grace_expires_at && Date.parse(key.grace_expires_at) <= now) return 'grace_over';
  if (key.kind === 'personal' && key.member_status !== 'active') return 'member_inactive';
  return null;
}

/** A key's row (with its member and company) by its id, whether it is still usable or not. */
export function keyById(db: Executor, companyId: string, keyId: number): Promise<KeyRow | undefined> {
  return findKey(db, companyId, { id: keyId });
}

const UNUSABLE_MESSAGES: Record<KeyUnusable, string> = {
  revoked: 'The API key has been revoked',
  expired: 'The API key has expired',
  grace_over: 'The API key was rotated and its grace period has ended',
  member_inactive: 'The member this personal key acts for is not active',
};

function checkKeyUsable(row: KeyRow | undefined, request: FastifyRequest): asserts row is KeyRow {
  if (!row) throw unauthorized('The API key is not valid for this company');
  const unusable = keyUnusable(row);
  if (unusable) throw unauthorized(UNUSABLE_MESSAGES[unusable]);
  if (row.ip_allowlist && row.ip_allowlist.length > 0 && !addressAllowed(request.ip, row.ip_allowlist)) {
    throw new AppError('FORBIDDEN', 'This API key may not be used from this address', { ip: request.ip });
  }
}

/** Resolves the company header and the key into the request context, in the spec's order. */
export async function authenticate(db: Db, request: FastifyRequest, cache?: KeyCache<KeyRow>): Promise<Ctx> {
  const companyId = companyIdFrom(request);
  const raw = request.headers['x-api-key'];
  const fullKey = Array.isArray(raw) ? raw[0] : raw;
  if (!fullKey) throw new AppError('MISSING_AUTH', 'The X-API-Key header is required');
  if (!fullKey.startsWith(KEY_PREFIX)) throw unauthorized('The API key is not valid for this company');
  const row = await lookupKey(db, cache, companyId, fullKey);
  return contextOf(db, request, companyId, row);
}

/**
 * The context of a key known by its id, checked as at every request (revoked, expired, member gone): for
 * credentials that stand for a key, like the legacy v1.0 engine's ten-minute tokens.
 */
export async function authenticateKeyId(db: Db, request: FastifyRequest, companyId: string, keyId: number) {
  return contextOf(db, request, companyId, await findKey(db, companyId, { id: keyId }));
}

async function contextOf(db: Db, request: FastifyRequest, companyId: string, row: KeyRow | undefined): Promise<Ctx> {
  checkKeyUsable(row, request);
  await touchLastUsed(db, companyId, row);
  const personal = row.kind === 'personal';
  return {
    db,
    companyId,
    company: row.company,
    key: { id: row.id, kind: row.kind, scopes: row.scopes, personId: row.person_id },
    actor: {
      personId: row.person_id,
      role: row.member_role,
      restricted: personal && row.member_role === 'member',
    },
    requestId: request.id,
  };
}

/** last_used_at is kept to the minute, so a busy key costs one write a minute, not one per request. */
async function touchLastUsed(db: Db, companyId: string, row: KeyRow): Promise<void> {
  if (row.last_used_at && Date.now() - Date.parse(row.last_used_at) < LAST_USED_RESOLUTION_MS) return;
  await db
    .updateTable('api_keys')
    .set({ last_used_at: sql`now()` })
    .where('company_id', '=', companyId)
    .where('id', '=', row.id)
    .execute();
  // A cached row must not ask for this write again within the minute.
  row.last_used_at = new Date().toISOString();
}

/**
 * Who may manage the company's keys and webhooks (spec rule 11): an owner or administrator, or a key acting
 * for no person. An admin-scoped key attributed to a plain member is not one; since only such managers mint
 * keys, a person-less key can never be minted from a plain member's key to get round this.
 */
export function isCompanyManager(actor: Actor): boolean {
  return actor.personId === null || actor.role === 'owner' || actor.role === 'admin';
}

/** 403 FORBIDDEN naming the role, for key and webhook management by a key that is not a manager's. */
export function assertCompanyManager(ctx: Ctx, what: string): void {
  if (isCompanyManager(ctx.actor)) return;
  throw new AppError('FORBIDDEN', `${what} is open to company owners and administrators only`, {
    required_role: 'owner or admin',
  });
}
