import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { hashPassword, PASSWORD_ALGORITHM } from '../../../src/modules/sessions/index.ts';
import { as, cookieFrom, makeAccount, newMember, signIn } from '../../support/sessions.ts';

const t = await createTestApp();

const change = (session: { cookie: string; csrf: string }, body: unknown) =>
  t.request('PUT', '/auth/password', { ...as(session), company: null, body });

const account = (id: number) =>
  t.db.db
    .selectFrom('accounts')
    .select(['password_hash', 'password_changed_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

test('passwords are stored as argon2id PHC strings with OWASP parameters (salted: the same password hashes apart)', async () => {
  assert.equal(PASSWORD_ALGORITHM, 'argon2id', 'the Node that npm install brings has crypto.argon2');
  const a = await hashPassword('the same password');
  const b = await hashPassword('the same password');
  assert.match(a, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  assert.notEqual(a, b);
  const { accountId } = await makeAccount(t, { personId: await newMember(t, 'member') });
  assert.match((await account(accountId)).password_hash!, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
});

test('changing the password ends every session of the account and gives this browser a fresh one', async () => {
  const { email, password, accountId } = await makeAccount(t, { personId: await newMember(t, 'member') });
  const here = await signIn(t, email, password);
  const there = await signIn(t, email, password);
  const res = await change(here, { current_password: password, new_password: 'a brand new passphrase' });
  assert.equal(res.status, 200, res.text);
  const fresh = cookieFrom(res);
  assert.notEqual(fresh, here.cookie);
  assert.notEqual(res.body.data.session_id, here.id);
  const ended = await t.db.db
    .selectFrom('sessions')
    .select(['id', 'ended_reason'])
    .where('id', 'in', [here.id, there.id])
    .orderBy('id')
    .execute();
  assert.deepEqual(
    ended.map((s) => s.ended_reason),
    ['password_changed', 'password_changed'],
  );
  for (const old of [here, there]) assert.equal((await t.request('GET', '/auth/session', as(old))).status, 401);
  const next = { cookie: fresh, csrf: res.body.data.csrf_token };
  assert.equal((await t.request('GET', '/clients', as(next))).status, 200);
  assert.ok((await account(accountId)).password_changed_at);
  assert.equal(
    (await t.request('POST', '/auth/sessions', { key: null, company: null, body: { email, password } })).status,
    401,
  );
  await signIn(t, email, 'a brand new passphrase');
});

test('a wrong current password is 400 VALIDATION_ERROR naming current_password; nothing changes', async () => {
  const { email, password, accountId } = await makeAccount(t, { personId: await newMember(t, 'member') });
  const session = await signIn(t, email, password);
  const before = await account(accountId);
  const res = await change(session, { current_password: 'not my password', new_password: 'a brand new passphrase' });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  assert.deepEqual(res.body.error.details, { reason: 'WRONG_PASSWORD', field: 'current_password' });
  assert.deepEqual(await account(accountId), before);
  assert.equal((await t.request('GET', '/auth/session', as(session))).status, 200, 'still signed in');
});

test('the new password must have 10-200 characters and not be the e-mail address', async () => {
  const { email, password } = await makeAccount(t, { personId: await newMember(t, 'member') });
  const session = await signIn(t, email, password);
  const cases: Array<[string, string]> = [
    ['short', 'PASSWORD_LENGTH'],
    ['x'.repeat(201), 'PASSWORD_LENGTH'],
    [email.toUpperCase(), 'PASSWORD_IS_EMAIL'],
  ];
  for (const [newPassword, reason] of cases) {
    const res = await change(session, { current_password: password, new_password: newPassword });
    assert.equal(res.status, 400, newPassword);
    assert.deepEqual(res.body.error.details, { reason, field: 'new_password' });
  }
  const tooLong = await change(session, { current_password: password, new_password: 'x'.repeat(1001) });
  assert.equal(tooLong.body.error.code, 'VALIDATION_ERROR');
  // Ten characters of any script count as ten.
  const ok = await change(session, { current_password: password, new_password: 'ääääääääää' });
  assert.equal(ok.status, 200, ok.text);
});

test('wrong current passwords count against the account like failed sign-ins', async () => {
  const { email, password } = await makeAccount(t, { personId: await newMember(t, 'member') });
  const session = await signIn(t, email, password);
  for (let i = 0; i < 5; i++)
    assert.equal(
      (await change(session, { current_password: 'wrong guess', new_password: 'whatever new one' })).status,
      400,
    );
  const locked = await change(session, { current_password: password, new_password: 'whatever new one' });
  assert.equal(locked.status, 429);
  assert.equal(locked.body.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.ok(Number(locked.headers.get('retry-after')) > 0);
});

test('a hash made with older parameters is verified and replaced by a current one at sign-in', async () => {
  const { email, password, accountId } = await makeAccount(t, { personId: await newMember(t, 'member') });
  // The scrypt form this service writes where Node has no argon2 (N=2^17 is slow: a cheaper N stands in).
  const { scryptSync, randomBytes } = await import('node:crypto');
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
  const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
  const old = `$scrypt$ln=14,r=8,p=1$${b64(salt)}$${b64(hash)}`;
  await t.db.db.updateTable('accounts').set({ password_hash: old }).where('id', '=', accountId).execute();
  const before = await account(accountId);
  await signIn(t, email, password);
  const after = await account(accountId);
  assert.match(after.password_hash!, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  assert.equal(after.password_changed_at, before.password_changed_at, 'a rehash is not a password change');
  await signIn(t, email, password);
});
