import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { assertPasswordRules, hashPassword } from './sessions.passwords.ts';
import * as repo from './sessions.repository.ts';

// tenant: deliberate SQL: an account spans companies; the member linked is named by its company and person.

/**
 * The account of an e-mail address (made when the address has none), linked to the company's member of the
 * person. For the demo owner, and for whoever turns an invitation into a member (a password comes later).
 */
export async function linkAccount(
  db: Executor,
  link: { email: string; companyId: string; personId: number },
): Promise<number> {
  const email = link.email.trim();
  await db
    .insertInto('accounts')
    .values({ email })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .execute();
  const account = await repo.findAccountByEmail(db, email);
  await db
    .updateTable('members')
    .set({ account_id: account!.id })
    .where('company_id', '=', link.companyId)
    .where('person_id', '=', link.personId)
    .execute();
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
