import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';
import { makeAccount, newMember, uniqueEmail } from '../../support/sessions.ts';

// Behind a trusted local proxy, so each test can be its own client address (X-Forwarded-For).
const t = await createTestApp({}, { SVC_TRUST_PROXY: '127.0.0.1', SVC_REQUIRE_HTTPS: 'off' });
let addresses = 0;
const freshAddress = () => `198.51.100.${++addresses}`;

const attempt = (email: string, password: string, from: string) =>
  t.request('POST', '/auth/sessions', {
    key: null,
    company: null,
    headers: { 'x-forwarded-for': from },
    body: { email, password },
  });

/** As if the window had run out: the stored window ends a second ago. */
const endWindow = (bucket: string) =>
  t.db.db
    .updateTable('auth_throttle')
    .set({ window_ends_at: sql`now() - interval '1 second'` as never })
    .where('bucket', '=', bucket)
    .execute();

function assertThrottled(res: { status: number; headers: Headers; body: any }, windowSeconds = 900) {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.equal(res.body.error.code, 'RATE_LIMIT_EXCEEDED');
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= windowSeconds, `Retry-After ${retryAfter}`);
  assert.equal(res.body.error.details.retry_after, retryAfter);
}

test('five failed sign-ins lock the account for the rest of the 15-minute window, even for the right password; then it works', async () => {
  const { email, password } = await makeAccount(t, { personId: await newMember(t, 'member') });
  const from = freshAddress();
  for (let i = 0; i < 5; i++) assert.equal((await attempt(email, 'wrong password', from)).status, 401);
  assertThrottled(await attempt(email, password, from));
  assertThrottled(await attempt(email.toUpperCase(), password, freshAddress()), 900);
  const stored = await t.db.db
    .selectFrom('auth_throttle')
    .selectAll()
    .where('bucket', '=', `sign-in:account:${email}`)
    .executeTakeFirstOrThrow();
  assert.equal(stored.attempts, 5, 'refused attempts are not counted');

  await endWindow(`sign-in:account:${email}`);
  const after = await attempt(email, password, from);
  assert.equal(after.status, 201, after.text);
  const cleared = await t.db.db
    .selectFrom('auth_throttle')
    .select('attempts')
    .where('bucket', '=', `sign-in:account:${email}`)
    .executeTakeFirst();
  assert.equal(cleared, undefined, "a success starts the account's count afresh");
});

test("a success resets the account's count: four failures, a success, then five more failures before the lock", async () => {
  const { email, password } = await makeAccount(t, { personId: await newMember(t, 'member') });
  const from = freshAddress();
  for (let i = 0; i < 4; i++) assert.equal((await attempt(email, 'wrong password', from)).status, 401);
  assert.equal((await attempt(email, password, from)).status, 201);
  for (let i = 0; i < 5; i++) assert.equal((await attempt(email, 'wrong password', from)).status, 401, `failure ${i}`);
  assertThrottled(await attempt(email, 'wrong password', from));
});

test('an unknown address is counted like a known one (the answers never tell them apart)', async () => {
  const email = uniqueEmail('ghost');
  const from = freshAddress();
  for (let i = 0; i < 5; i++) assert.equal((await attempt(email, 'whatever it is', from)).status, 401);
  assertThrottled(await attempt(email, 'whatever it is', from));
});

test('a burst of parallel guesses is counted before any is checked: only five are tried', async () => {
  const { email } = await makeAccount(t, { personId: await newMember(t, 'member') });
  const from = freshAddress();
  const answers = await Promise.all(Array.from({ length: 12 }, () => attempt(email, 'wrong password', from)));
  const statuses = answers.map((res) => res.status).sort();
  assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(7).fill(429)]);
});

test('twenty failed sign-ins from one address lock that address for every account; other addresses go on', async () => {
  const from = freshAddress();
  // Four accounts, five failures each: no account is locked, the address is.
  for (let i = 0; i < 20; i++) {
    const res = await attempt(uniqueEmail(`spray${i % 4}`), 'wrong password', from);
    assert.equal(res.status, 401, `failure ${i}`);
  }
  const { email, password } = await makeAccount(t, { personId: await newMember(t, 'member') });
  assertThrottled(await attempt(email, password, from));
  assert.equal((await attempt(email, password, freshAddress())).status, 201, 'another address is not locked');
  await endWindow(`sign-in:address:${from}`);
  assert.equal((await attempt(email, password, from)).status, 201, 'after the window the address may sign in');
});

test('password-reset requests are limited per e-mail (3) and per address (10) with 429 and Retry-After', async () => {
  const request = (email: string, from: string) =>
    t.request('POST', '/auth/password-resets', {
      key: null,
      company: null,
      headers: { 'x-forwarded-for': from },
      body: { email },
    });
  const email = uniqueEmail('resetter');
  for (let i = 0; i < 3; i++) assert.equal((await request(email, freshAddress())).status, 202);
  assertThrottled(await request(email, freshAddress()));
  const from = freshAddress();
  for (let i = 0; i < 10; i++) assert.equal((await request(uniqueEmail('many'), from)).status, 202);
  assertThrottled(await request(uniqueEmail('many'), from));
});
