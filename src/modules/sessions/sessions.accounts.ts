import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { assertPasswordRules, hashPassword } from './sessions.passwords.ts';
import * as repo from './sessions.repository.ts';

/** The account of an e-mail address, made when the address has none; members link it to their rows. */
export async function ensureAccount(db: Executor, address: string): Promise<number> {
  const email = address.trim();
  await db
    .insertInto('accounts')
    .values({ email })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .execute();
  const account = await repo.findAccountByEmail(db, email);
  return account!.id;
}

/** Sets the account's password (the rules apply); sessions are left as they are: the caller decides. */
export async function setAccountPassword(db: Executor, accountId: number, password: string): Promise<void> {
  const account = await repo.findAccount(db, accountId);
  if (!account) throw new Error(`account ${accountId} does not exist`);
  assertPasswordRules(password, account.email, 'password');
  await repo.setPasswordHash(db, accountId, await hashPassword(password), true);
}

/**
 * Ends every live session of the account, in the caller's transaction when given a ctx (the request's): the hook
 * for deactivating a member ('deactivated'). Caches on every instance hear of it when the transaction commits.
 */
export function endAccountSessions(target: Ctx | Executor, accountId: number, reason: repo.EndReason): Promise<number> {
  const db = 'companyId' in target ? target.db : target;
  return repo.endAccountSessions(db, accountId, reason);
}

/** Sessions over (or never touched again) for 30 days are gone; at most 1000 rows a run. */
export async function sweepSessions(db: Executor): Promise<number> {
  await db
    .updateTable('sessions')
    .set({ ended_at: sql`date_trunc('milliseconds', now())`, ended_reason: 'expired' })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where('ended_at', 'is', null)
        .where(sql<boolean>`idle_expires_at <= now() or absolute_expires_at <= now()`)
        .limit(1000),
    )
    .execute();
  const result = await db
    .deleteFrom('sessions')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where('ended_at', '<', sql<string>`now() - interval '30 days'`)
        .limit(1000),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
