import assert from 'node:assert/strict';
import type { Response, TestApp, TenantFixture } from '../helpers.ts';
import { linkAccount } from '../../src/modules/members/index.ts';
import { setAccountPassword } from '../../src/modules/sessions/index.ts';
import { addMember } from '../../src/modules/companies/index.ts';

/** A browser's session in the tests: the cookie it sends, and the CSRF token its writes carry. */
export interface Session {
  cookie: string;
  csrf: string;
  id: number;
  body: any;
}

let counter = 0;
/** An address no other test of the run uses (accounts are global, tenants are not). */
export const uniqueEmail = (label = 'person') => `${label}-${process.pid}-${Date.now()}-${++counter}@test.example`;

/** An account with a password, linked to the member of `personId` in the tenant's company. */
export async function makeAccount(
  t: TestApp,
  options: { tenant?: TenantFixture; personId?: number; email?: string; password?: string } = {},
): Promise<{ email: string; password: string; accountId: number }> {
  const tenant = options.tenant ?? t.tenant;
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery';
  const accountId = await linkAccount(t.db.db, {
    email,
    companyId: tenant.companyId,
    personId: options.personId ?? tenant.ownerPersonId,
  });
  await setAccountPassword(t.db.db, accountId, password);
  return { email, password, accountId };
}

/** The session cookie a Set-Cookie header sets (name=value only). */
export function cookieFrom(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  const pair = header.split(';')[0]!;
  assert.match(pair, /^(__Host-)?svc_session=[A-Za-z0-9_-]{43}$/, `a session cookie was set: ${header}`);
  return pair;
}

export async function signIn(
  t: TestApp,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Session> {
  const res = await t.request('POST', '/auth/sessions', {
    key: null,
    company: null,
    body: { email, password },
    headers,
  });
  assert.equal(res.status, 201, res.text);
  return { cookie: cookieFrom(res), csrf: res.body.data.csrf_token, id: res.body.data.session_id, body: res.body };
}

/** A new member of the tenant's company (a member row has one account: tests that need several make several). */
export async function newMember(t: TestApp, role: 'owner' | 'admin' | 'member', tenant = t.tenant): Promise<number> {
  const member = await addMember(t.db.db, tenant.companyId, {
    name: `Web ${role}`,
    surname: String(++counter),
    email: uniqueEmail('member'),
    role,
    status: 'active',
  });
  return member.person_id;
}

/**
 * An account for a member and a signed-in session of it: the member of `personId`, else a new member of `role`
 * (owner by default).
 */
export async function sessionFor(
  t: TestApp,
  options: { tenant?: TenantFixture; personId?: number; role?: 'owner' | 'admin' | 'member' } = {},
): Promise<Session & { email: string; password: string; accountId: number; personId: number }> {
  const personId = options.personId ?? (await newMember(t, options.role ?? 'owner', options.tenant));
  const account = await makeAccount(t, { ...options, personId });
  return { ...account, personId, ...(await signIn(t, account.email, account.password)) };
}

/** Request options that authenticate with the session instead of a key (writes carry the CSRF token). */
export const as = (session: Pick<Session, 'cookie' | 'csrf'>, extra: Record<string, string> = {}) => ({
  key: null,
  headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, ...extra },
});
