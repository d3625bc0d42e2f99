import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { AppError, domainValidation } from '../../platform/errors.ts';
import { secretTokenHash } from '../../platform/session-credential.ts';
import {
  accountBucket,
  clearBucket,
  countAttempt,
  findAccountByEmail,
  issueSession,
  setAccountPassword,
  uncount,
  verifyPassword,
  type Bucket,
  type Client,
  type Issued,
  type SessionEnv,
} from '../sessions/index.ts';
import type { InvitationAcceptBody, InvitationInspectionRecord } from './invitations.schemas.ts';
import { findByToken, type TokenRow } from './invitations.repository.ts';
import { activateInvited, linkAccount } from '../members/index.ts';

/** Link checks per client address in the sign-in window: a guess at a 32-byte token is hopeless, a flood is not. */
export const INVITATION_CHECKS_PER_ADDRESS = 30;
const addressBucket = (address: string): Bucket => ({
  name: `invitation:address:${address}`,
  max: INVITATION_CHECKS_PER_ADDRESS,
});

/** One answer for a token that never was, was used, expired, was replaced by a resend or cancelled. */
const invalidToken = () =>
  new AppError(
    'INVALID_TOKEN',
    'The invitation link is not valid: it was used, has expired, or was replaced or cancelled',
  );

async function usableRow(env: SessionEnv, client: Client, token: string): Promise<{ row: TokenRow; hash: Buffer }> {
  const bucket = addressBucket(client.address);
  await countAttempt(env.db, [bucket], 'Too many invitation links tried; wait a while');
  const hash = secretTokenHash(token);
  const row = hash && (await findByToken(env.db, hash, false));
  if (!hash || !row?.usable) throw invalidToken();
  // A good link is not a failed attempt: only bad ones use up the address's allowance.
  await uncount(env.db, [bucket.name]);
  return { row, hash };
}

/** POST /auth/invitations/inspect: whom a usable link is for, so the page can greet them. */
export async function inspectInvitation(
  env: SessionEnv,
  client: Client,
  token: string,
): Promise<InvitationInspectionRecord> {
  const { row } = await usableRow(env, client, token);
  const account = await findAccountByEmail(env.db, row.email);
  return {
    company: { id: row.company_id, name: row.company_name },
    email: row.email,
    name: row.name,
    surname: row.surname,
    has_account: Boolean(account?.password_hash),
  };
}

/** An existing account joins by its password, counted like a sign-in against the account. */
async function checkExistingPassword(env: SessionEnv, email: string, password: string): Promise<boolean> {
  const account = await findAccountByEmail(env.db, email);
  if (!account?.password_hash) return false;
  const bucket = accountBucket(email);
  await countAttempt(env.db, [bucket], 'Too many wrong passwords; wait before trying again');
  const verified = await verifyPassword(account.password_hash, password);
  if (!verified.ok) throw new AppError('INVALID_CREDENTIALS', 'The password of the existing account is wrong');
  await clearBucket(env.db, bucket);
  return true;
}

// tenant: deliberate SQL: the company comes from the token's row, checked under its lock; there is no ctx yet.
async function activateMember(tx: Executor, row: TokenRow, body: InvitationAcceptBody, existing: boolean) {
  const accountId = await linkAccount(tx, { email: row.email, companyId: row.company_id, personId: row.person_id });
  if (!existing) await setAccountPassword(tx, accountId, body.password);
  const names = existing
    ? {}
    : { name: body.name ?? row.name, surname: body.surname === undefined ? row.surname : body.surname };
  const invited = { companyId: row.company_id, memberId: row.member_id, personId: row.person_id, role: row.role };
  await activateInvited(tx, { ...invited, email: row.email }, names);
  await tx
    .updateTable('invitations')
    .set({ state: 'accepted', accepted_at: sql`date_trunc('milliseconds', clock_timestamp())` })
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .execute();
  return accountId;
}

/** The account of the address must not be a member of the company through another member row already. */
async function assertNotMemberElsewhere(tx: Executor, row: TokenRow): Promise<void> {
  const other = await tx
    .selectFrom('members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select('m.id')
    .where('m.company_id', '=', row.company_id)
    .where('m.id', '!=', row.member_id)
    .where(sql<string>`lower(a.email)`, '=', row.email.toLowerCase())
    .executeTakeFirst();
  if (other) throw domainValidation('ALREADY_MEMBER', 'This account is a member of the company already', {});
}

/**
 * POST /auth/invitations/accept: a usable link sets the password (or an existing account shows its own), makes the
 * member active with the invited role, spends the link and signs this browser in, all in one transaction.
 */
export async function acceptInvitation(env: SessionEnv, client: Client, body: InvitationAcceptBody): Promise<Issued> {
  const { row: seen, hash } = await usableRow(env, client, body.token);
  const existing = await checkExistingPassword(env, seen.email, body.password);
  return env.db.transaction().execute(async (tx) => {
    const row = await findByToken(tx, hash, true);
    if (!row?.usable) throw invalidToken();
    await assertNotMemberElsewhere(tx, row);
    const accountId = await activateMember(tx, row, body, existing);
    return issueSession(tx, env, client, { id: accountId, email: row.email });
  });
}
