import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp } from '../../helpers.ts';
import { as, sessionFor, signIn } from '../../support/sessions.ts';

// A session as the credential of API v3: it acts as its member, in the company of X-Service-Company.
const t = await createTestApp();
const owner = await sessionFor(t, { personId: t.tenant.ownerPersonId });
const member = await sessionFor(t, { personId: t.tenant.memberPersonId });

async function client(name: string, defaultPerson: number | null) {
  const res = await t.request('POST', '/clients', { body: { name, default_person_id: defaultPerson } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as number;
}

test("an owner's session has the admin tier: financial routes, key management, company configuration", async () => {
  for (const path of ['/invoices', '/contracts', '/taxes', '/auth/keys', '/members'])
    assert.equal((await t.request('GET', path, as(owner))).status, 200, path);
  const key = await t.request('POST', '/auth/keys', { ...as(owner), body: { name: 'made in the web app' } });
  assert.equal(key.status, 201, key.text);
  assert.equal(key.body.data.person_id, t.tenant.ownerPersonId, 'attributed to the signed-in owner');
  const topic = await t.request('POST', '/topics', { ...as(owner), body: { name: 'Web topic' } });
  assert.equal(topic.status, 201, topic.text);
});

test("a plain member's session gets read and write with a personal key's visibility: 403 on money and configuration", async () => {
  const own = await client('Member sees this', t.tenant.memberPersonId);
  const hidden = await client('Member does not see this', null);
  const list = await t.request('GET', '/clients?limit=200', as(member));
  assert.equal(list.status, 200);
  const ids = list.body.data.map((c: { id: number }) => c.id);
  assert.ok(ids.includes(own) && !ids.includes(hidden), 'only the clients a personal key of theirs would see');
  assert.equal((await t.request('GET', `/clients/${hidden}`, as(member))).status, 404);

  const money = await t.request('GET', '/invoices', as(member));
  assert.equal(money.status, 403);
  assert.equal(money.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
  const config = await t.request('POST', '/topics', { ...as(member), body: { name: 'Nope' } });
  assert.equal(config.status, 403);
  assert.equal(config.body.error.details.required_role, 'owner or admin');
  const keys = await t.request('GET', '/auth/keys', as(member));
  assert.equal(keys.status, 403);
  assert.deepEqual(keys.body.error.details, { required_scope: 'admin' });
  const created = await t.request('POST', '/clients', {
    ...as(member),
    body: { name: 'Made by a member', default_person_id: t.tenant.memberPersonId },
  });
  assert.equal(created.status, 201, created.text);
});

test('GET /auth/me with a session names the credential and the member, and no key', async () => {
  const me = await t.request('GET', '/auth/me', as(member));
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.data.credential, 'session');
  assert.equal(me.body.data.key, null);
  assert.equal(me.body.data.person.person_id, t.tenant.memberPersonId);
  assert.equal(me.body.data.person.role, 'member');
  const byKey = await t.request('GET', '/auth/me');
  assert.equal(byKey.body.data.credential, 'api_key');
  assert.equal(byKey.body.data.key.id, t.tenant.keyIds.admin);
});

test('a company the account has no active member in answers 401 UNAUTHORIZED', async () => {
  const other = await t.newTenant({ name: 'Not mine' });
  const res = await t.request('GET', '/clients', { ...as(owner), tenant: other });
  assert.equal(res.status, 401);
  assert.equal(res.body.error.code, 'UNAUTHORIZED');
  assert.equal(res.headers.get('set-cookie'), null, 'the session itself is fine: the cookie stays');
  const unknown = await t.request('GET', '/clients', { ...as(owner), company: '00000000-0000-4000-8000-000000000000' });
  assert.equal(unknown.status, 401);
  const missing = await t.request('GET', '/clients', { ...as(owner), company: null });
  assert.equal(missing.body.error.code, 'MISSING_COMPANY');
});

test('neither key nor cookie: 401 MISSING_AUTH naming both ways', async () => {
  const res = await t.request('GET', '/clients', { key: null });
  assert.equal(res.status, 401);
  assert.equal(res.body.error.code, 'MISSING_AUTH');
  assert.match(res.body.error.message, /X-API-Key.*sign in/);
});

test('a cached session is refused the moment its member is deactivated or it is signed out (cache eviction)', async () => {
  const session = await signIn(t, member.email, member.password);
  assert.equal((await t.request('GET', '/clients', as(session))).status, 200);
  assert.equal((await t.request('GET', '/clients', as(session))).status, 200, 'from the cache now');
  const setStatus = (status: 'active' | 'inactive') =>
    t.db.db
      .updateTable('members')
      .set({ status })
      .where('company_id', '=', t.tenant.companyId)
      .where('person_id', '=', t.tenant.memberPersonId)
      .execute();
  await setStatus('inactive');
  try {
    const refused = await t.request('GET', '/clients', as(session));
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'UNAUTHORIZED');
  } finally {
    await setStatus('active');
  }
  assert.equal((await t.request('GET', '/clients', as(session))).status, 200);
  assert.equal((await t.request('DELETE', '/auth/session', as(session))).status, 204);
  assert.equal((await t.request('GET', '/clients', as(session))).status, 401);
});

test('a write through a session is audited as coming from the web (source web, no key, the member)', async () => {
  const res = await t.request('POST', '/clients', { ...as(owner), body: { name: 'Audited web client' } });
  assert.equal(res.status, 201, res.text);
  const byKey = await t.request('POST', '/clients', { body: { name: 'Audited API client' } });
  const trail = await t.request('GET', '/activities?entity=client&limit=200');
  const row = (id: number) => trail.body.data.find((a: any) => a.record_id === id && a.action === 'created');
  assert.deepEqual(
    { source: row(res.body.data.id).source, api_key_id: row(res.body.data.id).api_key_id },
    { source: 'web', api_key_id: null },
  );
  assert.equal(row(res.body.data.id).person_id, t.tenant.ownerPersonId);
  assert.equal(row(byKey.body.data.id).source, 'api');
  const stored = await t.db.db
    .selectFrom('activities')
    .select(['source', 'api_key_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('record_id', '=', res.body.data.id)
    .where('entity', '=', 'client')
    .executeTakeFirstOrThrow();
  assert.deepEqual(stored, { source: 'web', api_key_id: null });
});

test("idempotency is scoped to the session's member: a retry from a new session of the same member replays", async () => {
  const body = { name: 'Idempotent web client', default_person_id: t.tenant.memberPersonId };
  const headers = { 'idempotency-key': 'web-retry-1' };
  const first = await t.request('POST', '/clients', { ...as(member, headers), body });
  assert.equal(first.status, 201, first.text);
  const again = await signIn(t, member.email, member.password);
  const replay = await t.request('POST', '/clients', { ...as(again, headers), body });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.equal(replay.body.data.id, first.body.data.id);
  const otherBody = await t.request('POST', '/clients', { ...as(again, headers), body: { ...body, name: 'Else' } });
  assert.equal(otherBody.status, 409);
  assert.equal(otherBody.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  // The owner's session and the member's own personal key are other credentials: the key is theirs to use anew.
  const ownerRun = await t.request('POST', '/clients', { ...as(owner, headers), body });
  assert.equal(ownerRun.headers.get('idempotency-replayed'), null);
  assert.notEqual(ownerRun.body.data.id, first.body.data.id);
  const keyRun = await t.request('POST', '/clients', { key: 'personal', headers, body });
  assert.equal(keyRun.status, 201);
  assert.equal(keyRun.headers.get('idempotency-replayed'), null);
  const stored = await t.db.db
    .selectFrom('idempotency_keys')
    .select(['credential', 'api_key_id', 'session_person_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('key', '=', 'web-retry-1')
    .execute();
  stored.sort((a, b) => a.credential.localeCompare(b.credential));
  const byCredential = (a: { credential: string }, b: { credential: string }) =>
    a.credential.localeCompare(b.credential);
  assert.deepEqual(
    stored,
    [
      { credential: `key:${t.tenant.keyIds.personal}`, api_key_id: t.tenant.keyIds.personal, session_person_id: null },
      { credential: `member:${t.tenant.memberPersonId}`, api_key_id: null, session_person_id: t.tenant.memberPersonId },
      { credential: `member:${t.tenant.ownerPersonId}`, api_key_id: null, session_person_id: t.tenant.ownerPersonId },
    ].sort(byCredential),
  );
});

test("a job started by a member's session runs as that member (their visibility) and is theirs to read", async () => {
  const mine = await client('Bulk mine', t.tenant.memberPersonId);
  const theirs = await client('Bulk theirs', null);
  const task = async (clientId: number) =>
    (await t.request('POST', '/tasks', { body: { title: 'Bulk', client_id: clientId, status: 'new' } })).body.data.id;
  const visible = await task(mine);
  const invisible = await task(theirs);
  const res = await t.request('POST', '/tasks/bulk-action', {
    ...as(member),
    body: { action: 'status', status: 'in_progress', filter: { status: ['new'] } },
  });
  assert.equal(res.status, 202, res.text);
  let job = res.body.data;
  for (let i = 0; i < 100 && job.status !== 'finished' && job.status !== 'failed'; i++) {
    await sleep(50);
    const read = await t.request('GET', `/jobs/${job.id}`, as(member));
    assert.equal(read.status, 200, read.text);
    job = read.body.data;
  }
  assert.equal(job.status, 'finished', JSON.stringify(job));
  const status = async (id: number) => (await t.request('GET', `/tasks/${id}`)).body.data.status;
  assert.equal(await status(visible), 'in_progress');
  assert.equal(await status(invisible), 'new', 'a task the member cannot see is not touched');
  const row = await t.db.db
    .selectFrom('jobs')
    .select(['api_key_id', 'session_person_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', job.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { api_key_id: null, session_person_id: t.tenant.memberPersonId });
  assert.equal((await t.request('GET', `/jobs/${job.id}`, { key: 'personal' })).status, 404, "not the key's job");
});

test('rate limits count per member for sessions: two sessions of one member share an allowance', async () => {
  const limited = await createTestApp({}, { SVC_RATE_LIMIT_READ: '3' });
  const a = await sessionFor(limited, { personId: limited.tenant.memberPersonId });
  const b = await signIn(limited, a.email, a.password);
  const first = await limited.request('GET', '/clients', as(a));
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('x-ratelimit-limit'), '3');
  assert.equal(first.headers.get('x-ratelimit-remaining'), '2');
  assert.equal((await limited.request('GET', '/clients', as(b))).headers.get('x-ratelimit-remaining'), '1');
  assert.equal((await limited.request('GET', '/clients', as(a))).status, 200);
  const over = await limited.request('GET', '/clients', as(b));
  assert.equal(over.status, 429);
  assert.equal(over.body.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.match(over.body.error.message, /for this member/);
  assert.ok(Number(over.headers.get('retry-after')) >= 1);
  const owners = await sessionFor(limited, { personId: limited.tenant.ownerPersonId });
  assert.equal((await limited.request('GET', '/clients', as(owners))).status, 200, 'another member counts apart');
  assert.equal((await limited.request('GET', '/clients', { key: 'personal' })).status, 200, 'and so does a key');
});
