import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp } from '../../helpers.ts';
import { loadConfig } from '../../../src/config.ts';
import { as, cookieFrom, makeAccount, newMember, sessionFor, signIn } from '../../support/sessions.ts';

// Tiny time-outs stand in for SVC_SESSION_IDLE_MINUTES and SVC_SESSION_ABSOLUTE_HOURS.
// Wide enough that a request slowed by a loaded machine still lands on the side of the bound it is meant for.
const IDLE_MS = 6_000;
const ABSOLUTE_MS = 12_000;
const t = await createTestApp({ sessions: { idleMs: IDLE_MS, absoluteMs: ABSOLUTE_MS } });

const row = (id: number) =>
  t.db.db
    .selectFrom('sessions')
    .select(['ended_at', 'ended_reason', 'last_seen_at', 'idle_expires_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

test('the time-outs default to 30 minutes idle and 12 hours absolute, read from their settings', () => {
  assert.deepEqual(loadConfig({}).sessions, { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 });
  assert.deepEqual(loadConfig({ SVC_SESSION_IDLE_MINUTES: '15', SVC_SESSION_ABSOLUTE_HOURS: '8' }).sessions, {
    idleMs: 15 * 60_000,
    absoluteMs: 8 * 3_600_000,
  });
  assert.throws(() => loadConfig({ SVC_SESSION_IDLE_MINUTES: '0' }), /SVC_SESSION_IDLE_MINUTES must be at least 1/);
  assert.throws(() => loadConfig({ SVC_SESSION_ABSOLUTE_HOURS: 'x' }), /SVC_SESSION_ABSOLUTE_HOURS/);
  assert.throws(() => loadConfig({ SVC_PUBLIC_URL: 'ftp://x' }), /SVC_PUBLIC_URL/);
  assert.equal(loadConfig({ SVC_PUBLIC_URL: 'https://app.example.com/' }).publicUrl, 'https://app.example.com');
});

test('activity moves the idle expiry on; a session left idle past it is refused with 401 and marked expired', async () => {
  const session = await sessionFor(t, { role: 'member' });
  const signedInIdle = Date.parse(session.body.data.idle_expires_at);
  // Requests 2.5 s apart keep a 6-second idle time-out alive past its first expiry.
  for (let i = 0; i < 3; i++) {
    await sleep(2_500);
    const res = await t.request('GET', '/clients', as(session));
    assert.equal(res.status, 200, `request ${i}: ${res.text}`);
  }
  const moved = await row(session.id);
  assert.ok(Date.parse(moved.idle_expires_at) > signedInIdle + 5_000, 'the idle expiry moved on');
  await sleep(IDLE_MS + 1_000);
  const idle = await t.request('GET', '/clients', as(session));
  assert.equal(idle.status, 401);
  assert.equal(idle.body.error.code, 'UNAUTHORIZED');
  assert.match(idle.body.error.message, /expired/);
  assert.match(idle.headers.get('set-cookie') ?? '', /^svc_session=; Max-Age=0/);
  const ended = await row(session.id);
  assert.equal(ended.ended_reason, 'expired');
  assert.ok(ended.ended_at);
  assert.equal((await t.request('GET', '/auth/session', as(session))).status, 401);
});

test('the absolute time-out ends a session however busy it is', async () => {
  const session = await sessionFor(t, { role: 'member' });
  const started = Date.now();
  while (Date.now() - started < ABSOLUTE_MS - 3_000) {
    assert.equal((await t.request('GET', '/auth/session', as(session))).status, 200);
    await sleep(1_000);
  }
  await sleep(Math.max(0, ABSOLUTE_MS + 1_000 - (Date.now() - started)));
  const res = await t.request('GET', '/clients', as(session));
  assert.equal(res.status, 401);
  assert.equal((await row(session.id)).ended_reason, 'expired');
});

test('last_seen_at is written at most once a minute: requests within the minute write nothing', async () => {
  const slow = await createTestApp({ sessions: { idleMs: 30 * 60_000, absoluteMs: 3_600_000 } });
  const personId = await newMember(slow, 'member');
  const { email, password } = await makeAccount(slow, { personId });
  const session = await signIn(slow, email, password);
  const before = await slow.db.db
    .selectFrom('sessions')
    .select(['last_seen_at', 'idle_expires_at'])
    .where('id', '=', session.id)
    .executeTakeFirstOrThrow();
  for (let i = 0; i < 10; i++) assert.equal((await slow.request('GET', '/clients', as(session))).status, 200);
  const after = await slow.db.db
    .selectFrom('sessions')
    .select(['last_seen_at', 'idle_expires_at'])
    .where('id', '=', session.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(after, before, 'within the minute nothing is written');
});

test('over HTTPS (a trusted proxy) the cookie is __Host-svc_session with Secure; the plain name is not read there', async () => {
  const https = await createTestApp({}, { SVC_TRUST_PROXY: '127.0.0.1' });
  const { email, password } = await makeAccount(https, { personId: https.tenant.memberPersonId });
  const secure = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
  const res = await https.request('POST', '/auth/sessions', {
    key: null,
    company: null,
    headers: { ...secure, origin: `https://${new URL(https.baseUrl).host}` },
    body: { email, password },
  });
  assert.equal(res.status, 201, res.text);
  assert.match(
    res.headers.get('set-cookie')!,
    /^__Host-svc_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
  );
  const cookie = cookieFrom(res);
  const token = cookie.split('=')[1]!;
  const csrf = res.body.data.csrf_token;
  const ok = await https.request('GET', '/clients', { key: null, headers: { ...secure, cookie } });
  assert.equal(ok.status, 200, ok.text);
  const plain = await https.request('GET', '/clients', {
    key: null,
    headers: { ...secure, cookie: `svc_session=${token}` },
  });
  assert.equal(plain.status, 401);
  assert.equal(plain.body.error.code, 'MISSING_AUTH');
  const out = await https.request('DELETE', '/auth/session', {
    key: null,
    company: null,
    headers: { ...secure, cookie, 'x-csrf-token': csrf },
  });
  assert.equal(out.status, 204);
  assert.match(
    out.headers.get('set-cookie')!,
    /^__Host-svc_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
  );
});
