import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { as, cookieFrom, makeAccount, sessionFor } from '../../support/sessions.ts';

const t = await createTestApp({ publicUrl: 'https://app.example.test' });
const session = await sessionFor(t);
const own = new URL(t.baseUrl).origin;

const create = (headers: Record<string, string>, name = 'CSRF client') =>
  t.request('POST', '/clients', { key: null, headers, body: { name } });
const refusal = (res: { status: number; body: any }) => [
  res.status,
  res.body?.error?.code,
  res.body?.error?.details?.reason,
];

test('a cookie-authenticated write without X-CSRF-Token, or with a wrong one, is 403 CSRF_REJECTED and writes nothing', async () => {
  const before = await t.db.db
    .selectFrom('clients')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  assert.deepEqual(refusal(await create({ cookie: session.cookie })), [403, 'CSRF_REJECTED', 'MISSING_TOKEN']);
  assert.deepEqual(refusal(await create({ cookie: session.cookie, 'x-csrf-token': 'x'.repeat(43) })), [
    403,
    'CSRF_REJECTED',
    'WRONG_TOKEN',
  ]);
  const other = await sessionFor(t);
  assert.deepEqual(
    refusal(await create({ cookie: session.cookie, 'x-csrf-token': other.csrf })),
    [403, 'CSRF_REJECTED', 'WRONG_TOKEN'],
    "another session's token is not this one's",
  );
  for (const method of ['PATCH', 'DELETE']) {
    const res = await t.request(method, '/clients/1', { key: null, headers: { cookie: session.cookie }, body: {} });
    assert.equal(res.body.error.code, 'CSRF_REJECTED', method);
  }
  const after = await t.db.db.selectFrom('clients').select('id').where('company_id', '=', t.tenant.companyId).execute();
  assert.equal(after.length, before.length);
});

test('a foreign Origin or Sec-Fetch-Site: cross-site is refused even with the right token; same-origin passes', async () => {
  const good = { cookie: session.cookie, 'x-csrf-token': session.csrf };
  assert.deepEqual(refusal(await create({ ...good, origin: 'https://evil.example' })), [
    403,
    'CSRF_REJECTED',
    'FOREIGN_ORIGIN',
  ]);
  assert.deepEqual(refusal(await create({ ...good, origin: 'null' })), [403, 'CSRF_REJECTED', 'FOREIGN_ORIGIN']);
  assert.deepEqual(refusal(await create({ ...good, 'sec-fetch-site': 'cross-site' })), [
    403,
    'CSRF_REJECTED',
    'CROSS_SITE',
  ]);
  assert.deepEqual(refusal(await create({ ...good, 'sec-fetch-site': 'same-site' })), [
    403,
    'CSRF_REJECTED',
    'CROSS_SITE',
  ]);
  for (const headers of [
    good,
    { ...good, origin: own, 'sec-fetch-site': 'same-origin' },
    { ...good, origin: 'https://app.example.test', 'sec-fetch-site': 'same-origin' },
    { ...good, 'sec-fetch-site': 'none' },
  ]) {
    const res = await create(headers);
    assert.equal(res.status, 201, `${JSON.stringify(headers)}: ${res.text}`);
  }
});

test('reads need no CSRF token, and API-key requests are unaffected by every CSRF rule', async () => {
  const read = await t.request('GET', '/clients', {
    key: null,
    headers: { cookie: session.cookie, 'sec-fetch-site': 'cross-site' },
  });
  assert.equal(read.status, 200);
  const keyed = await t.request('POST', '/clients', {
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    body: { name: 'Made with a key' },
  });
  assert.equal(keyed.status, 201, keyed.text);
  // With a key and a cookie, the key decides (and the session's rules do not apply).
  const both = await t.request('POST', '/clients', {
    headers: { cookie: session.cookie },
    body: { name: 'Key and cookie' },
  });
  assert.equal(both.status, 201, both.text);
});

test('the session routes check CSRF too, and the anonymous posts check Origin and Sec-Fetch-Site (login CSRF)', async () => {
  const out = await t.request('DELETE', '/auth/session', {
    key: null,
    company: null,
    headers: { cookie: session.cookie },
  });
  assert.deepEqual(refusal(out), [403, 'CSRF_REJECTED', 'MISSING_TOKEN']);
  assert.equal((await t.request('GET', '/auth/session', as(session))).status, 200, 'still signed in');
  const { email, password } = await makeAccount(t);
  const signIn = (headers: Record<string, string>) =>
    t.request('POST', '/auth/sessions', { key: null, company: null, headers, body: { email, password } });
  assert.deepEqual(refusal(await signIn({ origin: 'https://evil.example' })), [403, 'CSRF_REJECTED', 'FOREIGN_ORIGIN']);
  assert.deepEqual(refusal(await signIn({ 'sec-fetch-site': 'cross-site' })), [403, 'CSRF_REJECTED', 'CROSS_SITE']);
  const reset = await t.request('POST', '/auth/password-resets', {
    key: null,
    company: null,
    headers: { 'sec-fetch-site': 'cross-site' },
    body: { email },
  });
  assert.deepEqual(refusal(reset), [403, 'CSRF_REJECTED', 'CROSS_SITE']);
  const complete = await t.request('POST', '/auth/password-resets/complete', {
    key: null,
    company: null,
    headers: { origin: 'https://evil.example' },
    body: { token: 'x', password: 'whatever it is' },
  });
  assert.deepEqual(refusal(complete), [403, 'CSRF_REJECTED', 'FOREIGN_ORIGIN']);
  const ok = await signIn({ origin: own, 'sec-fetch-site': 'same-origin' });
  assert.equal(ok.status, 201);
  cookieFrom(ok);
});
