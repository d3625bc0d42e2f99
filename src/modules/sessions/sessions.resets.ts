import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { newSecretToken, secretTokenHash } from '../../platform/session-credential.ts';
import type { PasswordResetCompleteBody } from './sessions.schemas.ts';
import { assertPasswordRules, hashPassword } from './sessions.passwords.ts';
import { accountBucket, clearBucket, countAttempt, resetBuckets } from './sessions.throttle.ts';
import { issueSession, type Client, type Issued, type SessionEnv } from './sessions.service.ts';
import { sendResetMail } from './sessions.mail.ts';
import * as repo from './sessions.repository.ts';
import { firstRecord } from '../../platform/sql.ts';

/** A reset link is valid this long, once. */
export const RESET_MINUTES = 30;

const invalidToken = () =>
  new AppError('INVALID_TOKEN', 'The reset link is not valid: it was used already, has expired, or was replaced');

// tenant: deliberate SQL: password resets belong to an account, not to a company.

/** Work a request handed on: its response does not wait for it (nor tell by its time whether there was any). */
const pending = new Set<Promise<unknown>>();

/** Resolves once the reset work handed on so far has finished (the app awaits it when it closes). */
export const settleResets = () => Promise.allSettled([...pending]);

/**
 * POST /auth/password-resets: counted per e-mail and per address, then answered at once, the same way whether
 * the address has an account or not. The lookup, the token and the mail happen after the answer.
 */
export async function requestReset(
  env: SessionEnv,
  client: Client,
  email: string,
  log: (error: unknown) => void,
): Promise<void> {
  await countAttempt(env.db, resetBuckets(email, client.address), 'Too many password-reset requests; wait a while');
  const work = createReset(env, email).catch(log);
  pending.add(work);
  void work.finally(() => pending.delete(work));
}

/** A new reset for an account that may sign in voids its older unused ones; the link goes out by mail. */
async function createReset(env: SessionEnv, email: string): Promise<void> {
  const account = await repo.findAccountByEmail(env.db, email);
  if (!account?.active) return;
  const { token, hash } = newSecretToken();
  await env.db.transaction().execute(async (tx) => {
    await repo.lockAccount(tx, account.id);
    await tx.deleteFrom('password_resets').where('account_id', '=', account.id).where('used_at', 'is', null).execute();
    await tx
      .insertInto('password_resets')
      .values({
        account_id: account.id,
        token_hash: hash,
        expires_at: sql<string>`date_trunc('milliseconds', now()) + make_interval(mins => ${RESET_MINUTES})`,
      })
      .execute();
  });
  await sendResetMail(env, account, token);
}

interface ResetRow {
  id: number;
  account_id: number;
  email: string;
  usable: boolean;
}

const findReset = (db: Executor, hash: Buffer, lock: boolean) => {
  const query = db
    .selectFrom('password_resets as r')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .select(['r.id', 'r.account_id', 'a.email', sql<boolean>`r.used_at is null and r.expires_at > now()`.as('usable')])
    .where('r.token_hash', '=', hash);
  return firstRecord<ResetRow>(lock ? query.forUpdate() : query);
};

/**
 * POST /auth/password-resets/complete: a usable token sets the password (checked first, so a refused password
 * leaves the link usable), ends every session of the account and signs this browser in.
 */
export async function completeReset(env: SessionEnv, client: Client, body: PasswordResetCompleteBody): Promise<Issued> {
  const hash = secretTokenHash(body.token);
  const found = hash && (await findReset(env.db, hash, false));
  if (!hash || !found?.usable) throw invalidToken();
  assertPasswordRules(body.password, found.email, 'password');
  const passwordHash = await hashPassword(body.password);
  return env.db.transaction().execute(async (tx) => {
    const reset = await findReset(tx, hash, true);
    const account = reset && (await repo.lockAccount(tx, reset.account_id));
    if (!reset?.usable || !account?.active) throw invalidToken();
    await tx
      .updateTable('password_resets')
      .set({ used_at: sql`date_trunc('milliseconds', now())` })
      .where('id', '=', reset.id)
      .execute();
    await repo.setPasswordHash(tx, account.id, passwordHash, true);
    await repo.endAccountSessions(tx, account.id, 'password_changed');
    // Whoever reads the account's mail has shown it is theirs: failed sign-ins so far no longer lock it.
    await clearBucket(tx, accountBucket(account.email));
    return issueSession(tx, env, client, account);
  });
}

/** Spent and stale resets are of no use to anyone after a day. */
export async function sweepResets(db: Executor): Promise<number> {
  const result = await db
    .deleteFrom('password_resets')
    .where('expires_at', '<', sql<string>`now() - interval '1 day'`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
