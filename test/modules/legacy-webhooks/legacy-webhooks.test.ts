import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type KeyName, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();
const V1 = `${t.baseUrl}/api/v1.0`;

async function call(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${V1}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The key pair (company and API key, as v3 sends them) exchanged for a ten-minute token. */
async function exchange(key: KeyName = 'admin', tenant: TenantFixture = t.tenant) {
  const res = await fetch(`${V1}/auth/token`, {
    method: 'POST',
    headers: { 'x-service-company': tenant.companyId, 'x-api-key': tenant.keys[key] },
  });
  return { status: res.status, body: (await res.json()) as any };
}

test('a key pair is exchanged for a token valid ten minutes; only its hash is stored', async () => {
  const res = await exchange();
  assert.equal(res.status, 200);
  assert.match(res.body.token, /^svc_v1t_[A-Za-z0-9_-]{43}$/);
  assert.equal(res.body.token_type, 'Bearer');
  assert.equal(res.body.expires_in, 600);
  const lifetime = Date.parse(res.body.expires_at) - Date.now();
  assert.ok(lifetime > 590_000 && lifetime <= 600_000, `expires in ${lifetime} ms`);
  const rows = await t.db.db.selectFrom('legacy_tokens').selectAll().execute();
  assert.ok(rows.every((r) => r.token_hash !== res.body.token && /^[0-9a-f]{64}$/.test(r.token_hash)));
  const audit = await t.db.db
    .selectFrom('activities')
    .select(['entity', 'action'])
    .where('path', '=', '/api/v1.0/auth/token')
    .execute();
  assert.deepEqual(audit.at(-1), { entity: 'legacy_auth', action: 'token' });
});

test('subscribe, list and unsubscribe: flat records, no envelope; a private URL is accepted at subscribe time', async () => {
  const { token } = (await exchange()).body;
  const created = await call('POST', '/webhooks/subscription', {
    token,
    body: { webhook: 'client_added', url: 'http://10.0.0.7/hook' },
  });
  assert.equal(created.status, 201);
  assert.deepEqual(Object.keys(created.body).sort(), ['created_at', 'id', 'url', 'webhook']);
  assert.equal(created.body.webhook, 'client_added');
  assert.equal(created.body.url, 'http://10.0.0.7/hook');
  const second = await call('POST', '/webhooks/subscription', {
    token,
    body: { webhook: 'contact_added', url: 'https://example.com/contacts' },
  });
  const listed = await call('GET', '/webhooks/subscription', { token });
  assert.equal(listed.status, 200);
  assert.deepEqual(
    listed.body.map((s: { id: number }) => s.id),
    [created.body.id, second.body.id],
  );
  const stored = await t.db.db
    .selectFrom('legacy_webhook_subscriptions')
    .select(['webhook', 'api_key_id'])
    .where('id', '=', created.body.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(stored, { webhook: 'client_added', api_key_id: t.tenant.keyIds.admin });
  // The v3 engine never sees these subscriptions, nor the other way round.
  const v3 = await t.request('GET', '/webhooks');
  assert.ok(!v3.body.data.some((w: { url: string }) => w.url === 'http://10.0.0.7/hook'));

  assert.equal((await call('DELETE', `/webhooks/subscription/${created.body.id}`, { token })).status, 204);
  const again = await call('DELETE', `/webhooks/subscription/${created.body.id}`, { token });
  assert.equal(again.status, 404);
  assert.equal(again.body.error.code, 'NOT_FOUND');
  assert.deepEqual(
    (await call('GET', '/webhooks/subscription', { token })).body.map((s: { id: number }) => s.id),
    [second.body.id],
  );
});

test('tokens: missing, malformed, unknown, expired, or standing for a revoked key answer 401', async () => {
  const missing = await call('GET', '/webhooks/subscription');
  assert.equal(missing.status, 401);
  assert.equal(missing.body.error.code, 'MISSING_AUTH');
  for (const token of ['nope', 'svc_v1t_unknown', t.tenant.keys.admin]) {
    const res = await call('GET', '/webhooks/subscription', { token });
    assert.equal(res.status, 401, token);
    assert.equal(res.body.error.code, 'UNAUTHORIZED');
  }
  const { token } = (await exchange()).body;
  await t.db.db.updateTable('legacy_tokens').set({ expires_at: '2020-01-01T00:00:00Z' }).execute();
  assert.equal((await call('GET', '/webhooks/subscription', { token })).status, 401);

  const fresh = (await exchange('admin')).body.token;
  const other = await t.newTenant({ name: 'Revoked Co' });
  const theirs = (await exchange('admin', other)).body.token;
  await t.db.db.updateTable('api_keys').set({ is_active: false }).where('id', '=', other.keyIds.admin).execute();
  const revoked = await call('GET', '/webhooks/subscription', { token: theirs });
  assert.equal(revoked.status, 401);
  assert.match(revoked.body.error.message, /revoked/);
  assert.equal((await call('GET', '/webhooks/subscription', { token: fresh })).status, 200);
});

test('the exchange needs a valid key pair with the admin scope of a company manager', async () => {
  const none = await fetch(`${V1}/auth/token`, { method: 'POST' });
  assert.equal(none.status, 400);
  assert.equal(((await none.json()) as any).error.code, 'MISSING_COMPANY');
  const badKey = await fetch(`${V1}/auth/token`, {
    method: 'POST',
    headers: { 'x-service-company': t.tenant.companyId, 'x-api-key': 'svc_live_wrong' },
  });
  assert.equal(badKey.status, 401);
  for (const key of ['write', 'read', 'personal'] as const) {
    const res = await exchange(key);
    assert.equal(res.status, 403, key);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  }
});

test("tenancy: another company's token cannot see or delete this company's subscriptions", async () => {
  const mine = (await exchange()).body.token;
  const sub = await call('POST', '/webhooks/subscription', {
    token: mine,
    body: { webhook: 'client_added', url: 'https://example.com/mine' },
  });
  const other = await t.newTenant({ name: 'Other Co' });
  const theirs = (await exchange('admin', other)).body.token;
  assert.deepEqual((await call('GET', '/webhooks/subscription', { token: theirs })).body, []);
  assert.equal((await call('DELETE', `/webhooks/subscription/${sub.body.id}`, { token: theirs })).status, 404);
  assert.equal((await call('GET', '/webhooks/subscription', { token: mine })).body.length >= 1, true);
});

test('bad input: unknown events, bad URLs, unknown fields, NUL bytes, huge ids answer 400', async () => {
  const { token } = (await exchange()).body;
  for (const body of [
    { webhook: 'client.created', url: 'https://example.com' },
    { webhook: 'client_added', url: 'ftp://example.com/x' },
    { webhook: 'client_added', url: 'not a url' },
    { webhook: 'client_added', url: 'https://user:pw@example.com/' },
    { webhook: 'client_added', url: `https://example.com/${'a'.repeat(2100)}` },
    { webhook: 'client_added', url: 'https://example.com/\u0000' },
    { webhook: 'client_added', url: 'https://example.com', extra: 1 },
    { webhook: ['client_added'], url: 'https://example.com' },
    { url: 'https://example.com' },
  ]) {
    const res = await call('POST', '/webhooks/subscription', { token, body });
    assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  for (const id of ['0', 'abc', '99999999999999999999']) {
    const res = await call('DELETE', `/webhooks/subscription/${id}`, { token });
    assert.equal(res.status, 400, id);
  }
  assert.equal(
    await t.db.db
      .selectFrom('legacy_webhook_subscriptions')
      .select('id')
      .where('url', 'like', 'ftp%')
      .executeTakeFirst(),
    undefined,
  );
});
