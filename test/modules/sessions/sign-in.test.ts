import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createTestApp } from '../../helpers.ts';
import { as, cookieFrom, makeAccount, sessionFor, signIn, uniqueEmail } from '../../support/sessions.ts';

const t = await createTestApp();
const anonymous = { key: null, company: null } as const;

const sessionRow = (id: number) =>
  t.db.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

test('signing in answers 201 with the session view and an HttpOnly, SameSite=Lax cookie; only the hash is stored', async () => {
  const { email, password, accountId } = await makeAccount(t);
  const res = await t.request('POST', '/auth/sessions', {
    ...anonymous,
    body: { email: email.toUpperCase(), password },
    headers: { 'user-agent': `Browser/1.0 ${'x'.repeat(400)}` },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const cookie = res.headers.get('set-cookie')!;
  assert.match(cookie, /^svc_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/);
  const view = res.body.data;
  assert.deepEqual(view.account, { id: accountId, email });
  assert.deepEqual(view.companies, [
    {
      id: t.tenant.companyId,
      name: 'Test Co',
      timezone: 'UTC',
      member_id: view.companies[0].member_id,
      person_id: t.tenant.ownerPersonId,
      role: 'owner',
      status: 'active',
      locale_code: null,
      person: { name: 'Olive', surname: 'Owner' },
    },
  ]);
  assert.match(view.csrf_token, /^[A-Za-z0-9_-]{43}$/);
  const idle = Date.parse(view.idle_expires_at) - Date.now();
  const absolute = Date.parse(view.absolute_expires_at) - Date.now();
  assert.ok(idle > 29 * 60_000 && idle <= 30 * 60_000, `idle time-out of 30 minutes (${idle})`);
  assert.ok(absolute > 11.9 * 3_600_000 && absolute <= 12 * 3_600_000, `absolute time-out of 12 hours (${absolute})`);

  const token = cookieFrom(res).split('=')[1]!;
  const row = await sessionRow(view.session_id);
  assert.deepEqual(row.token_hash, createHash('sha256').update(Buffer.from(token, 'base64url')).digest());
  assert.equal(row.account_id, accountId);
  assert.equal(row.ended_at, null);
  assert.equal(row.user_agent!.length, 256, 'the user agent is kept truncated');
  assert.match(row.ip!, /127\.0\.0\.1/);
});

test('every sign-in gets a new token and a new session', async () => {
  const { email, password } = await makeAccount(t);
  const first = await signIn(t, email, password);
  const second = await signIn(t, email, password);
  assert.notEqual(first.cookie, second.cookie);
  assert.notEqual(first.id, second.id);
  assert.notEqual(first.csrf, second.csrf);
  for (const session of [first, second])
    assert.equal((await t.request('GET', '/auth/session', as(session))).status, 200);
});

test('a wrong password, an unknown address and an account that may not sign in answer exactly alike', async () => {
  const { email } = await makeAccount(t);
  const inactive = await makeAccount(t, { personId: t.tenant.memberPersonId });
  await t.db.db
    .updateTable('members')
    .set({ status: 'inactive' })
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', t.tenant.memberPersonId)
    .execute();
  try {
    const attempts = [
      { email, password: 'not the password' },
      { email: uniqueEmail('nobody'), password: 'correct horse battery' },
      { email: inactive.email, password: inactive.password },
    ];
    const answers = [];
    for (const body of attempts) {
      const res = await t.request('POST', '/auth/sessions', { ...anonymous, body });
      assert.equal(res.headers.get('set-cookie'), null);
      answers.push({ status: res.status, body: res.body });
    }
    assert.deepEqual(answers[0], {
      status: 401,
      body: { error: { code: 'INVALID_CREDENTIALS', message: 'The e-mail address or the password is wrong' } },
    });
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
  } finally {
    await t.db.db
      .updateTable('members')
      .set({ status: 'active' })
      .where('company_id', '=', t.tenant.companyId)
      .where('person_id', '=', t.tenant.memberPersonId)
      .execute();
  }
});

test('a sign-in body that is not one answers 400 VALIDATION_ERROR, not 500', async () => {
  for (const body of [
    {},
    { email: 'a@b.c' },
    { email: 'a@b.c', password: 'x'.repeat(201) },
    { email: 1, password: 2 },
  ]) {
    const res = await t.request('POST', '/auth/sessions', { ...anonymous, body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
});

test('GET /auth/session: the view; no cookie is 401 MISSING_AUTH; an unknown or malformed one 401 UNAUTHORIZED and cleared', async () => {
  const session = await sessionFor(t);
  const res = await t.request('GET', '/auth/session', as(session));
  assert.equal(res.status, 200);
  assert.equal(res.body.data.session_id, session.id);
  assert.equal(res.body.data.csrf_token, session.csrf);
  assert.deepEqual(res.body.data.companies, session.body.data.companies);

  const none = await t.request('GET', '/auth/session', anonymous);
  assert.equal(none.status, 401);
  assert.equal(none.body.error.code, 'MISSING_AUTH');
  for (const cookie of [`svc_session=${'A'.repeat(43)}`, 'svc_session=garbage', 'svc_session=']) {
    const bad = await t.request('GET', '/auth/session', { ...anonymous, headers: { cookie } });
    if (cookie === 'svc_session=') {
      assert.equal(bad.body.error.code, 'MISSING_AUTH', cookie);
      continue;
    }
    assert.equal(bad.status, 401, cookie);
    assert.equal(bad.body.error.code, 'UNAUTHORIZED', cookie);
    assert.match(bad.headers.get('set-cookie') ?? '', /^svc_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
  }
});

test('signing out ends the session (reason sign_out) and clears the cookie; the old cookie is refused after', async () => {
  const session = await sessionFor(t);
  const out = await t.request('DELETE', '/auth/session', as(session));
  assert.equal(out.status, 204);
  assert.match(out.headers.get('set-cookie') ?? '', /^svc_session=; Max-Age=0;/);
  const row = await sessionRow(session.id);
  assert.equal(row.ended_reason, 'sign_out');
  assert.ok(row.ended_at);

  const again = await t.request('GET', '/auth/session', as(session));
  assert.equal(again.status, 401);
  assert.equal(again.body.error.code, 'UNAUTHORIZED');
  assert.match(again.headers.get('set-cookie') ?? '', /Max-Age=0/);
  const v3 = await t.request('GET', '/clients', as(session));
  assert.equal(v3.status, 401);
  assert.equal(v3.body.error.code, 'UNAUTHORIZED');
});

test('sessions list: the live ones, the current marked; ending another one; another account’s id is 404', async () => {
  const { email, password } = await makeAccount(t);
  const a = await signIn(t, email, password, { 'user-agent': 'Laptop' });
  const b = await signIn(t, email, password, { 'user-agent': 'Phone' });
  const stranger = await sessionFor(t);
  const list = await t.request('GET', '/auth/sessions', as(a));
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.data.map((s: any) => [s.id, s.user_agent, s.current]).sort(),
    [
      [a.id, 'Laptop', true],
      [b.id, 'Phone', false],
    ].sort(),
  );
  assert.deepEqual(Object.keys(list.body.data[0]).sort(), [
    'absolute_expires_at',
    'created_at',
    'current',
    'id',
    'idle_expires_at',
    'ip',
    'last_seen_at',
    'user_agent',
  ]);

  const foreign = await t.request('DELETE', `/auth/sessions/${stranger.id}`, as(a));
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('GET', '/auth/session', as(stranger))).status, 200, 'the stranger is still in');

  const ended = await t.request('DELETE', `/auth/sessions/${b.id}`, as(a));
  assert.equal(ended.status, 204);
  assert.equal(ended.headers.get('set-cookie'), null, 'this browser keeps its own cookie');
  assert.equal((await sessionRow(b.id)).ended_reason, 'revoked');
  assert.equal((await t.request('GET', '/auth/session', as(b))).status, 401);
  assert.equal((await t.request('GET', '/auth/session', as(a))).status, 200);
  assert.equal((await t.request('DELETE', `/auth/sessions/${b.id}`, as(a))).status, 404, 'ended already');
});

test('signing out everywhere ends every session of the account, this one included', async () => {
  const { email, password } = await makeAccount(t);
  const here = await signIn(t, email, password);
  const there = await signIn(t, email, password);
  const other = await sessionFor(t);
  const res = await t.request('DELETE', '/auth/sessions', as(here));
  assert.equal(res.status, 204);
  assert.match(res.headers.get('set-cookie') ?? '', /Max-Age=0/);
  for (const session of [here, there]) {
    assert.equal((await sessionRow(session.id)).ended_reason, 'sign_out_everywhere');
    assert.equal((await t.request('GET', '/clients', as(session))).status, 401);
  }
  assert.equal((await t.request('GET', '/clients', as(other))).status, 200, "another account's session is untouched");
});

test('an account holds at most 20 live sessions: the 21st sign-in ends the oldest', async () => {
  const { email, password } = await makeAccount(t);
  const first = await signIn(t, email, password);
  for (let i = 0; i < 20; i++) await signIn(t, email, password);
  assert.equal((await sessionRow(first.id)).ended_reason, 'revoked');
  const live = await t.db.db
    .selectFrom('sessions as s')
    .innerJoin('sessions as f', 'f.account_id', 's.account_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('f.id', '=', first.id)
    .where('s.ended_at', 'is', null)
    .executeTakeFirstOrThrow();
  assert.equal(Number(live.n), 20);
});

test('the session routes answer their errors in the usual body; the OpenAPI document lists them under "Web sessions"', async () => {
  const doc = (await t.request('GET', '/api/v3/openapi.json', anonymous)).body;
  const expected = [
    ['post', '/auth/sessions'],
    ['get', '/auth/session'],
    ['delete', '/auth/session'],
    ['get', '/auth/sessions'],
    ['delete', '/auth/sessions'],
    ['delete', '/auth/sessions/{session_id}'],
    ['put', '/auth/password'],
    ['post', '/auth/password-resets'],
    ['post', '/auth/password-resets/complete'],
  ];
  for (const [method, path] of expected) {
    const op = doc.paths[path!]?.[method!];
    assert.ok(op, `${method} ${path} is documented`);
    assert.deepEqual(op.tags, ['Web sessions']);
    assert.equal(op['x-scope'], 'none');
  }
  assert.deepEqual(doc.paths['/auth/session'].get.security, [{ session: [] }]);
  assert.equal(doc.components.securitySchemes.session.in, 'cookie');
  assert.match(doc.paths['/auth/sessions'].post.responses['401'].description, /INVALID_CREDENTIALS/);
  assert.match(doc.paths['/auth/password-resets/complete'].post.responses['400'].description, /INVALID_TOKEN/);
  assert.match(doc.paths['/clients'].post.responses['403'].description, /CSRF_REJECTED/);
  assert.deepEqual(doc.paths['/clients'].get.security, [
    { company: [], apiKey: [] },
    { company: [], session: [] },
  ]);
});

test('every session route answers its auth errors: MISSING_AUTH, CSRF_REJECTED on writes, HTTPS_REQUIRED from afar', async () => {
  const session = await sessionFor(t, { role: 'member' });
  const signedIn: Array<[string, string]> = [
    ['GET', '/auth/session'],
    ['DELETE', '/auth/session'],
    ['GET', '/auth/sessions'],
    ['DELETE', '/auth/sessions'],
    ['DELETE', `/auth/sessions/${session.id}`],
    ['PUT', '/auth/password'],
  ];
  for (const [method, path] of signedIn) {
    const body = method === 'PUT' ? { current_password: 'x', new_password: 'y' } : undefined;
    const none = await t.request(method, path, { ...anonymous, body });
    assert.equal(none.body.error.code, 'MISSING_AUTH', `${method} ${path}`);
    if (method !== 'GET') {
      const noToken = await t.request(method, path, { ...anonymous, body, headers: { cookie: session.cookie } });
      assert.equal(noToken.body.error.code, 'CSRF_REJECTED', `${method} ${path}`);
    }
  }
  for (const [method, url] of [...signedIn, ['POST', '/auth/sessions'], ['POST', '/auth/password-resets']]) {
    const remote = await t.app.inject({ method: method as 'GET', url: `/api/v3${url}`, remoteAddress: '203.0.113.5' });
    assert.equal(remote.statusCode, 403, `${method} ${url}`);
    assert.equal(remote.json().error.code, 'HTTPS_REQUIRED');
  }
  const badId = await t.request('DELETE', '/auth/sessions/abc', as(session));
  assert.equal(badId.status, 400);
  assert.equal(badId.body.error.code, 'VALIDATION_ERROR');
  assert.equal((await t.request('GET', '/auth/session', as(session))).status, 200, 'nothing ended the session');
});
