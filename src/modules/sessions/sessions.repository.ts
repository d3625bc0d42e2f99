import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { SessionCompanyRecord, SessionListItem } from './sessions.schemas.ts';

// tenant: deliberate SQL throughout: accounts, sessions and password resets belong to a person across companies;
// members are read by their account to list that person's companies.

export type EndReason = 'sign_out' | 'sign_out_everywhere' | 'password_changed' | 'deactivated' | 'expired' | 'revoked';

/** Live sessions one account may hold; signing in once more ends the oldest (reason 'revoked'). */
export const MAX_LIVE_SESSIONS = 20;
/** Companies a session view lists (an account in more is not a person but a mistake). */
export const MAX_COMPANIES = 100;

const ms = (value: number) => sql`make_interval(secs => ${value / 1000})`;
const now = sql<string>`date_trunc('milliseconds', now())`;

export interface AccountRow {
  id: number;
  email: string;
  password_hash: string | null;
  /** Has an active member in at least one company: only then may it sign in. */
  active: boolean;
}

const accountColumns = [
  'a.id',
  'a.email',
  'a.password_hash',
  sql<boolean>`exists (select 1 from members m where m.account_id = a.id and m.status = 'active')`.as('active'),
] as const;

export const findAccountByEmail = (db: Executor, email: string): Promise<AccountRow | undefined> =>
  db
    .selectFrom('accounts as a')
    .select(accountColumns)
    .where(sql<string>`lower(a.email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();

export const findAccount = (db: Executor, id: number): Promise<AccountRow | undefined> =>
  db.selectFrom('accounts as a').select(accountColumns).where('a.id', '=', id).executeTakeFirst();

/** The account row is locked, so two password changes of one account happen one after the other. */
export const lockAccount = (db: Executor, id: number): Promise<AccountRow | undefined> =>
  db.selectFrom('accounts as a').select(accountColumns).where('a.id', '=', id).forUpdate().executeTakeFirst();

export async function setPasswordHash(db: Executor, accountId: number, hash: string, changed: boolean): Promise<void> {
  await db
    .updateTable('accounts')
    .set({
      password_hash: hash,
      updated_at: now,
      // A rehash with new parameters is the same password: not a change.
      ...(changed ? { password_changed_at: now } : {}),
    })
    .where('id', '=', accountId)
    .execute();
}

export interface NewSession {
  accountId: number;
  tokenHash: Buffer;
  idleMs: number;
  absoluteMs: number;
  userAgent: string | null;
  ip: string;
}

export interface SessionTimes {
  id: number;
  idle_expires_at: string;
  absolute_expires_at: string;
}

export async function insertSession(db: Executor, values: NewSession): Promise<SessionTimes> {
  const absolute = sql<string>`${now} + ${ms(values.absoluteMs)}`;
  return db
    .insertInto('sessions')
    .values({
      account_id: values.accountId,
      token_hash: values.tokenHash,
      idle_expires_at: sql<string>`least(${now} + ${ms(values.idleMs)}, ${absolute})`,
      absolute_expires_at: absolute,
      user_agent: values.userAgent,
      ip: values.ip,
    })
    .returning(['id', 'idle_expires_at', 'absolute_expires_at'])
    .executeTakeFirstOrThrow();
}

/** Ends the account's oldest live sessions past MAX_LIVE_SESSIONS. */
export async function capLiveSessions(db: Executor, accountId: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ ended_at: now, ended_reason: 'revoked' })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where('account_id', '=', accountId)
        .where('ended_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(MAX_LIVE_SESSIONS),
    )
    .execute();
}

/** Ends every live session of the account (but `except`); how many ended. */
export async function endAccountSessions(
  db: Executor,
  accountId: number,
  reason: EndReason,
  except?: number,
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ ended_at: now, ended_reason: reason })
    .where('account_id', '=', accountId)
    .where('ended_at', 'is', null);
  if (except !== undefined) query = query.where('id', '<>', except);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ends one of the account's live sessions; false when it has no such session. */
export async function endSession(db: Executor, accountId: number, id: number, reason: EndReason): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ ended_at: now, ended_reason: reason })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('ended_at', 'is', null)
    .where(sql<boolean>`idle_expires_at > now() and absolute_expires_at > now()`)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export const liveSessions = (db: Executor, accountId: number, current: number): Promise<SessionListItem[]> =>
  db
    .selectFrom('sessions')
    .select([
      'id',
      'created_at',
      'last_seen_at',
      'idle_expires_at',
      'absolute_expires_at',
      'user_agent',
      'ip',
      sql<boolean>`id = ${current}`.as('current'),
    ])
    .where('account_id', '=', accountId)
    .where('ended_at', 'is', null)
    .where(sql<boolean>`idle_expires_at > now() and absolute_expires_at > now()`)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_LIVE_SESSIONS)
    .execute();

/** The companies the account may work in now: those where its member is active. */
export async function activeCompanies(db: Executor, accountId: number): Promise<SessionCompanyRecord[]> {
  const rows = await db
    .selectFrom('members as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .innerJoin('people as p', (join) =>
      join.onRef('p.company_id', '=', 'm.company_id').onRef('p.id', '=', 'm.person_id'),
    )
    .select([
      'c.id',
      'c.name',
      'c.timezone',
      'm.id as member_id',
      'm.person_id',
      sql<'member' | 'admin' | 'owner'>`m.role`.as('role'),
      sql<'active'>`m.status`.as('status'),
      'm.locale_code',
      'p.name as person_name',
      'p.surname as person_surname',
    ])
    .where('m.account_id', '=', accountId)
    .where('m.status', '=', 'active')
    .orderBy('c.name')
    .orderBy('c.id')
    .limit(MAX_COMPANIES)
    .execute();
  return rows.map(({ person_name, person_surname, ...company }) => ({
    ...company,
    person: { name: person_name, surname: person_surname },
  }));
}
