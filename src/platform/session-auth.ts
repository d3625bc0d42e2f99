import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';
import type { CompanyInfo, Ctx } from './context.ts';
import type { KeyCache } from './key-cache.ts';
import { sessionScopes } from './scopes.ts';
import { firstRecord } from './sql.ts';
import { companyJson } from './system-actor.ts';
import { checkCsrf, clearedSessionCookie, secretTokenHash, sessionTokenOf } from './session-credential.ts';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** last_seen_at / idle_expires_at are written at most this often per session (less with tiny time-outs). */
const TOUCH_RESOLUTION_MS = 60_000;

/** A session as a request sees it: its times, and (for a company's request) the member it acts as there. */
export interface SessionRow {
  id: number;
  account_id: number;
  last_seen_at: string;
  idle_expires_at: string;
  absolute_expires_at: string;
  ended_at: string | null;
  person_id: number | null;
  role: 'member' | 'admin' | 'owner' | null;
  member_status: string | null;
  company: CompanyInfo | null;
}

/** The live session of a request: its row, and the raw token (the CSRF token is derived from it). */
export interface LiveSession {
  row: SessionRow;
  token: string;
}

export interface SessionDeps {
  db: Db;
  config: Config;
  cache?: KeyCache<SessionRow> | undefined;
}

/** 401 UNAUTHORIZED that also removes the cookie: a browser must not keep sending a dead session. */
const ended = (request: FastifyRequest, message: string) =>
  new AppError('UNAUTHORIZED', message, undefined, { 'Set-Cookie': clearedSessionCookie(request) });

function findSession(db: Db, hash: Buffer, companyId: string | null): Promise<SessionRow | undefined> {
  // tenant: deliberate SQL: a session belongs to an account; the company is only joined to find its member.
  return firstRecord<SessionRow>(
    db
      .selectFrom('sessions as s')
      .leftJoin('members as m', (join) =>
        join.onRef('m.account_id', '=', 's.account_id').on('m.company_id', '=', companyId ?? sql<string>`null`),
      )
      .leftJoin('companies as c', (join) => join.on('c.id', '=', companyId ?? sql<string>`null`))
      .select([
        's.id',
        's.account_id',
        's.last_seen_at',
        's.idle_expires_at',
        's.absolute_expires_at',
        's.ended_at',
        'm.person_id',
        sql<SessionRow['role']>`m.role`.as('role'),
        'm.status as member_status',
        sql<CompanyInfo | null>`case when c.id is null then null else ${companyJson()} end`.as('company'),
      ])
      .where('s.token_hash', '=', hash),
  );
}

async function lookup(deps: SessionDeps, hash: Buffer, companyId: string | null) {
  const key = hash.toString('hex');
  const cached = companyId === null ? undefined : await deps.cache?.getFresh(companyId, key);
  if (cached) return { row: cached, fromCache: true };
  const generation = companyId === null ? 0 : (deps.cache?.generation(companyId) ?? 0);
  const row = await findSession(deps.db, hash, companyId);
  if (row && companyId !== null) deps.cache?.set(companyId, key, row, generation);
  return { row, fromCache: false };
}

const expired = (row: SessionRow, now = Date.now()) =>
  Date.parse(row.idle_expires_at) <= now || Date.parse(row.absolute_expires_at) <= now;

/** Ends a session whose time is up, as the database's clock sees it (another instance may have moved it on). */
async function markExpired(db: Db, id: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ ended_at: sql`date_trunc('milliseconds', now())`, ended_reason: 'expired' })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .where(sql<boolean>`idle_expires_at <= now() or absolute_expires_at <= now()`)
    .execute();
}

/**
 * Activity moves the idle expiry on, but the row is written at most once a minute (a tenth of the idle time-out
 * when that is shorter), not per request; the condition in SQL holds that across instances too.
 */
async function touch(deps: SessionDeps, row: SessionRow): Promise<void> {
  const resolution = Math.min(TOUCH_RESOLUTION_MS, deps.config.sessions.idleMs / 10);
  if (Date.now() - Date.parse(row.last_seen_at) < resolution) return;
  const moved = await deps.db
    .updateTable('sessions')
    .set({
      last_seen_at: sql`date_trunc('milliseconds', now())`,
      idle_expires_at: sql`least(date_trunc('milliseconds', now()) + make_interval(secs => ${deps.config.sessions.idleMs / 1000}), absolute_expires_at)`,
    })
    .where('id', '=', row.id)
    .where('ended_at', 'is', null)
    .where(sql<boolean>`last_seen_at <= now() - make_interval(secs => ${resolution / 1000})`)
    .returning(['last_seen_at', 'idle_expires_at'])
    .executeTakeFirst();
  // A cached row must not ask for this write again within the resolution.
  row.last_seen_at = moved?.last_seen_at ?? new Date().toISOString();
  if (moved) row.idle_expires_at = moved.idle_expires_at;
}

/**
 * The request's live session, or 401: MISSING_AUTH without a cookie, UNAUTHORIZED (and the cookie cleared) for
 * one that is unknown, ended or expired. An expired session is marked ended ('expired') there and then.
 */
export async function liveSession(
  deps: SessionDeps,
  request: FastifyRequest,
  companyId: string | null,
): Promise<LiveSession> {
  const token = sessionTokenOf(request);
  if (!token) throw new AppError('MISSING_AUTH', 'Sign in first: this needs a session cookie');
  const hash = secretTokenHash(token);
  if (!hash) throw ended(request, 'The session cookie is not valid; sign in again');
  let { row, fromCache } = await lookup(deps, hash, companyId);
  // A cached row may predate another instance's touch: an expiry it shows is confirmed from the database.
  if (row && fromCache && !row.ended_at && expired(row)) row = await findSession(deps.db, hash, companyId);
  if (!row) throw ended(request, 'The session is not valid; sign in again');
  if (row.ended_at) throw ended(request, 'The session has ended; sign in again');
  if (expired(row)) {
    await markExpired(deps.db, row.id);
    throw ended(request, 'The session has expired; sign in again');
  }
  await touch(deps, row);
  return { row, token };
}

/**
 * A v3 request authenticated by a session: the account must have an active member in the company of
 * X-Service-Company, and acts as that member (owners and administrators with the admin tier); a write must
 * also pass the CSRF check.
 */
export async function authenticateSession(deps: SessionDeps, request: FastifyRequest, companyId: string): Promise<Ctx> {
  const { row, token } = await liveSession(deps, request, companyId);
  if (!row.company || row.person_id === null || row.member_status !== 'active')
    throw new AppError('UNAUTHORIZED', 'The signed-in account has no active member in this company');
  if (!READ_METHODS.has(request.method)) checkCsrf(request, token, deps.config.publicUrl);
  return {
    db: deps.db,
    companyId,
    company: row.company,
    key: {
      id: null,
      kind: 'session',
      scopes: sessionScopes(row.role),
      personId: row.person_id,
      session: { id: row.id, accountId: row.account_id },
    },
    actor: { personId: row.person_id, role: row.role, restricted: row.role === 'member' },
    requestId: request.id,
  };
}
