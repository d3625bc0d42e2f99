import type { Db, Executor } from '../../db/database.ts';
import type { Config } from '../../config.ts';
import { AppError, domainValidation, notFound } from '../../platform/errors.ts';
import type { LiveSession } from '../../platform/session-auth.ts';
import { csrfTokenOf, newSecretToken } from '../../platform/session-credential.ts';
import type { SessionListItem, SessionViewRecord } from './sessions.schemas.ts';
import type { PasswordChangeBody, SignInBody } from './sessions.schemas.ts';
import { assertPasswordRules, hashPassword, verifyAgainstNothing, verifyPassword } from './sessions.passwords.ts';
import { accountBucket, addressBucket, clearBucket, countAttempt, uncount } from './sessions.throttle.ts';
import * as repo from './sessions.repository.ts';

/** What the session routes work with: no company, no key; the pool and the settings. */
export interface SessionEnv {
  db: Db;
  config: Config;
}

/** The browser asking: where from (the address the limits count) and what it calls itself. */
export interface Client {
  ip: string;
  address: string;
  userAgent: string | null;
}

/** A session just started: the view to answer with, and the token for the cookie. */
export interface Issued {
  view: SessionViewRecord;
  token: string;
  maxAgeSeconds: number;
}

const USER_AGENT_MAX = 256;

/** One message for a wrong address, a wrong password and an account that may not sign in: none is told apart. */
const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'The e-mail address or the password is wrong');

export async function viewOf(
  db: Executor,
  account: { id: number; email: string },
  session: repo.SessionTimes,
  token: string,
): Promise<SessionViewRecord> {
  return {
    session_id: session.id,
    account: { id: account.id, email: account.email },
    companies: await repo.activeCompanies(db, account.id),
    csrf_token: csrfTokenOf(token),
    idle_expires_at: session.idle_expires_at,
    absolute_expires_at: session.absolute_expires_at,
  };
}

/** A new session (a new token, every time) for the account, in the caller's transaction. */
export async function issueSession(
  tx: Executor,
  env: SessionEnv,
  client: Client,
  account: { id: number; email: string },
): Promise<Issued> {
  const { token, hash } = newSecretToken();
  const { idleMs, absoluteMs } = env.config.sessions;
  const session = await repo.insertSession(tx, {
    accountId: account.id,
    tokenHash: hash,
    idleMs,
    absoluteMs,
    userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    ip: client.ip,
  });
  await repo.capLiveSessions(tx, account.id);
  return { view: await viewOf(tx, account, session, token), token, maxAgeSeconds: absoluteMs / 1000 };
}

/**
 * POST /auth/sessions. The attempt is counted before the password is hashed; an unknown address still costs a
 * hash. A success starts the account's count afresh and gives the address its attempt back; a hash made with
 * older parameters is replaced.
 */
export async function signIn(env: SessionEnv, client: Client, body: SignInBody): Promise<Issued> {
  const account = accountBucket(body.email);
  const address = addressBucket(client.address);
  await countAttempt(env.db, [account, address], 'Too many failed sign-ins; wait before trying again');
  const found = await repo.findAccountByEmail(env.db, body.email);
  let verified = { ok: false, rehash: false };
  if (found?.password_hash) verified = await verifyPassword(found.password_hash, body.password);
  else await verifyAgainstNothing(body.password);
  if (!found || !verified.ok || !found.active) throw invalidCredentials();
  const rehashed = verified.rehash ? await hashPassword(body.password) : undefined;
  return env.db.transaction().execute(async (tx) => {
    await clearBucket(tx, account);
    await uncount(tx, [address.name]);
    if (rehashed) await repo.setPasswordHash(tx, found.id, rehashed, false);
    return issueSession(tx, env, client, found);
  });
}

async function accountOf(db: Executor, live: LiveSession): Promise<repo.AccountRow> {
  const account = await repo.findAccount(db, live.row.account_id);
  if (!account) throw new AppError('UNAUTHORIZED', 'The account of this session no longer exists');
  return account;
}

export async function currentView(env: SessionEnv, live: LiveSession): Promise<SessionViewRecord> {
  return viewOf(env.db, await accountOf(env.db, live), live.row, live.token);
}

export const listSessions = (env: SessionEnv, live: LiveSession): Promise<SessionListItem[]> =>
  repo.liveSessions(env.db, live.row.account_id, live.row.id);

export async function signOut(env: SessionEnv, live: LiveSession): Promise<void> {
  await repo.endSession(env.db, live.row.account_id, live.row.id, 'sign_out');
}

export async function signOutEverywhere(env: SessionEnv, live: LiveSession): Promise<void> {
  await repo.endAccountSessions(env.db, live.row.account_id, 'sign_out_everywhere');
}

/** Ends one of the account's own sessions; another account's id (or one already over) is 404. */
export async function endOwnSession(env: SessionEnv, live: LiveSession, id: number): Promise<void> {
  const reason = id === live.row.id ? 'sign_out' : 'revoked';
  if (!(await repo.endSession(env.db, live.row.account_id, id, reason))) throw notFound('Session');
}

/**
 * PUT /auth/password: the current password is checked (and counted against the account like a sign-in); every
 * session of the account ends ('password_changed') and this browser gets a fresh one.
 */
export async function changePassword(
  env: SessionEnv,
  client: Client,
  live: LiveSession,
  body: PasswordChangeBody,
): Promise<Issued> {
  const account = await accountOf(env.db, live);
  assertPasswordRules(body.new_password, account.email, 'new_password');
  const bucket = accountBucket(account.email);
  await countAttempt(env.db, [bucket], 'Too many wrong passwords; wait before trying again');
  const verified = account.password_hash ? await verifyPassword(account.password_hash, body.current_password) : null;
  if (!verified?.ok)
    throw domainValidation('WRONG_PASSWORD', 'current_password is not the password of this account', {
      field: 'current_password',
    });
  const hash = await hashPassword(body.new_password);
  return env.db.transaction().execute(async (tx) => {
    await repo.lockAccount(tx, account.id);
    await clearBucket(tx, bucket);
    await repo.setPasswordHash(tx, account.id, hash, true);
    await repo.endAccountSessions(tx, account.id, 'password_changed');
    return issueSession(tx, env, client, account);
  });
}
