import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, type TenantFixture } from '../helpers.ts';

// Plain HTTP from the default app (SVC_REQUIRE_HTTPS=on) over loopback is allowed; every test
// below that wants a non-loopback peer uses inject() with a remoteAddress.
const t = await createTestApp();
const REMOTE = '203.0.113.7';

function inject(
  app: TestApp,
  options: {
    method?: string;
    path: string;
    remote?: string;
    headers?: Record<string, string>;
    key?: string | null;
    tenant?: TenantFixture;
  },
) {
  const tenant = options.tenant ?? app.tenant;
  const headers: Record<string, string> = { 'x-service-company': tenant.companyId, ...options.headers };
  if (options.key !== null) headers['x-api-key'] = options.key ?? tenant.keys.admin;
  return app.app.inject({
    method: (options.method ?? 'GET') as 'GET',
    url: `/api/v3${options.path}`,
    remoteAddress: options.remote ?? REMOTE,
    headers,
  });
}

const code = (res: { body: any }) => res.body?.error?.code;

async function setCompany(
  tenant: TenantFixture,
  values: { subscription_status?: 'active' | 'lapsed'; plan?: 'pro' | 'basic' },
) {
  await t.db.db.updateTable('companies').set(values).where('id', '=', tenant.companyId).execute();
}

test('order: plain HTTP from a non-loopback peer is refused before the company header is looked at', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v3/clients', remoteAddress: REMOTE });
  assert.equal(res.statusCode, 403);
  assert.deepEqual(res.json(), { error: { code: 'HTTPS_REQUIRED', message: 'Requests must use HTTPS' } });
  const post = await t.app.inject({
    method: 'POST',
    url: '/api/v3/clients',
    remoteAddress: REMOTE,
    payload: '{not json',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(post.json().error.code, 'HTTPS_REQUIRED');
});

test('order: company header before key', async () => {
  const missing = await t.request('GET', '/clients', { company: null, key: null });
  assert.equal(missing.status, 400);
  assert.equal(code(missing), 'MISSING_COMPANY');
  const malformed = await t.request('GET', '/clients', { company: 'not-a-uuid', key: 'bogus' });
  assert.equal(malformed.status, 400);
  assert.equal(code(malformed), 'INVALID_COMPANY');
  const noKey = await t.request('GET', '/clients', { key: null });
  assert.equal(noKey.status, 401);
  assert.equal(code(noKey), 'MISSING_AUTH');
});

test('order: key before validation (bad key + invalid or malformed body is 401)', async () => {
  const invalid = await t.request('POST', '/clients', { key: 'svc_live_not_a_real_key', body: { name: '' } });
  assert.equal(invalid.status, 401);
  assert.equal(code(invalid), 'UNAUTHORIZED');
  const noPrefix = await t.request('POST', '/clients', { key: 'wrong', body: '{not json' });
  assert.equal(noPrefix.status, 401);
  assert.equal(code(noPrefix), 'UNAUTHORIZED');
});

test('a key of another company is 401 UNAUTHORIZED for this company', async () => {
  const other = await t.newTenant();
  const res = await t.request('GET', '/clients', { key: other.keys.admin });
  assert.equal(res.status, 401);
  assert.equal(code(res), 'UNAUTHORIZED');
});

test('order: scope before validation (read key + invalid body on POST is 403 naming the tier)', async () => {
  const tenant = await t.newTenant();
  const res = await t.request('POST', '/clients', { tenant, key: 'read', body: { name: 42, bogus: true } });
  assert.equal(res.status, 403);
  assert.equal(code(res), 'FORBIDDEN');
  assert.equal(res.body.error.details.required_scope, 'write');
  const valid = await t.request('POST', '/clients', { tenant, key: 'admin', body: { name: 42 } });
  assert.equal(valid.status, 400);
  assert.equal(code(valid), 'VALIDATION_ERROR');
});

test('order: subscription gate before scope (lapsed + read key on POST)', async () => {
  const tenant = await t.newTenant();
  await setCompany(tenant, { subscription_status: 'lapsed' });
  const res = await t.request('POST', '/clients', { tenant, key: 'read', body: { name: 42 } });
  assert.equal(res.status, 403);
  assert.equal(code(res), 'SUBSCRIPTION_READ_ONLY');
});

test('order: plan gate before scope and validation', async () => {
  const tenant = await t.newTenant();
  await setCompany(tenant, { plan: 'basic' });
  const res = await t.request('POST', '/clients', { tenant, key: 'read', body: '{not json' });
  assert.equal(res.status, 403);
  assert.equal(code(res), 'PLAN_UPGRADE_REQUIRED');
});

test('order: rate limit before scope; gates before rate limit', async () => {
  const limited = await createTestApp({}, { SVC_RATE_LIMIT_WRITE: '1' });
  const first = await limited.request('POST', '/clients', { key: 'read', body: { name: 'x' } });
  assert.equal(code(first), 'FORBIDDEN');
  assert.equal(first.headers.get('x-ratelimit-remaining'), '0');
  const second = await limited.request('POST', '/clients', { key: 'read', body: { name: 'x' } });
  assert.equal(second.status, 429);
  assert.equal(code(second), 'RATE_LIMIT_EXCEEDED');
  const lapsed = await limited.newTenant();
  await limited.db.db
    .updateTable('companies')
    .set({ subscription_status: 'lapsed' })
    .where('id', '=', lapsed.companyId)
    .execute();
  for (let i = 0; i < 3; i++) {
    const res = await limited.request('POST', '/clients', { tenant: lapsed, key: 'write', body: { name: 'x' } });
    assert.equal(code(res), 'SUBSCRIPTION_READ_ONLY');
    assert.equal(res.headers.get('x-ratelimit-limit'), null, 'a gated request is not counted');
  }
});

test('lapsed subscription: reads work, every write is 403 SUBSCRIPTION_READ_ONLY and changes nothing', async () => {
  const tenant = await t.newTenant();
  const client = await t.request('POST', '/clients', { tenant, body: { name: 'Kept' } });
  const contact = await t.request('POST', '/contacts', {
    tenant,
    body: { client_id: client.body.data.id, name: 'Ann' },
  });
  assert.equal(contact.status, 201, contact.text);
  await setCompany(tenant, { subscription_status: 'lapsed' });
  const id = client.body.data.id;
  assert.equal((await t.request('GET', '/clients', { tenant, key: 'read' })).status, 200);
  assert.equal((await t.request('GET', `/clients/${id}`, { tenant, key: 'read' })).status, 200);
  assert.equal((await t.request('GET', '/contacts', { tenant })).status, 200);
  const writes: Array<[string, string, unknown]> = [
    ['POST', '/clients', { name: 'New' }],
    ['PATCH', `/clients/${id}`, { name: 'Renamed' }],
    ['DELETE', `/clients/${id}`, undefined],
    ['POST', '/contacts', { client_id: id, name: 'Bob' }],
    ['PATCH', `/contacts/${contact.body.data.id}`, { name: 'X' }],
    ['DELETE', `/contacts/${contact.body.data.id}`, undefined],
  ];
  for (const [method, path, body] of writes) {
    const res = await t.request(method, path, { tenant, key: 'admin', body });
    assert.equal(res.status, 403, `${method} ${path}`);
    assert.equal(code(res), 'SUBSCRIPTION_READ_ONLY');
  }
  const stored = await t.db.db
    .selectFrom('clients')
    .select(['name', 'deleted_at'])
    .where('company_id', '=', tenant.companyId)
    .execute();
  assert.deepEqual(stored, [{ name: 'Kept', deleted_at: null }]);
});

test('plan gate: PLAN_UPGRADE_REQUIRED on every v3 request, reads included', async () => {
  const tenant = await t.newTenant();
  const client = await t.request('POST', '/clients', { tenant, body: { name: 'Kept' } });
  await setCompany(tenant, { plan: 'basic' });
  for (const [method, path] of [
    ['GET', '/clients'],
    ['GET', `/clients/${client.body.data.id}`],
    ['GET', '/contacts'],
    ['POST', '/clients'],
    ['DELETE', `/clients/${client.body.data.id}`],
  ] as const) {
    const res = await t.request(method, path, { tenant, body: method === 'POST' ? { name: 'n' } : undefined });
    assert.equal(res.status, 403, `${method} ${path}`);
    assert.equal(code(res), 'PLAN_UPGRADE_REQUIRED');
  }
  await setCompany(tenant, { plan: 'pro' });
  assert.equal((await t.request('GET', '/clients', { tenant })).status, 200);
});

test('SVC_REQUIRE_HTTPS=on: loopback plain HTTP passes, other peers do not', async () => {
  assert.equal((await t.request('GET', '/clients')).status, 200);
  const remote = await inject(t, { path: '/clients' });
  assert.equal(remote.statusCode, 403);
  assert.equal(remote.json().error.code, 'HTTPS_REQUIRED');
  const loopback = await inject(t, { path: '/clients', remote: '127.0.0.1' });
  assert.equal(loopback.statusCode, 200);
  // Without a trusted proxy, forwarding headers are the caller's own words: they never make a request secure.
  const spoofed = await inject(t, { path: '/clients', headers: { 'x-forwarded-proto': 'https' } });
  assert.equal(spoofed.json().error.code, 'HTTPS_REQUIRED');
});

test('forwarding headers from an untrusted loopback peer (a local proxy without SVC_TRUST_PROXY) lose the loopback exemption', async () => {
  const local = await createTestApp();
  const cases: Array<Record<string, string>> = [
    { 'x-forwarded-for': REMOTE },
    { 'x-forwarded-proto': 'https' },
    { 'x-forwarded-for': REMOTE, 'x-forwarded-proto': 'https' },
    { forwarded: `for=${REMOTE};proto=https` },
  ];
  for (const headers of cases) {
    const res = await local.request('GET', '/clients', { headers });
    assert.equal(res.status, 403, JSON.stringify(headers));
    assert.equal(code(res), 'HTTPS_REQUIRED');
  }
  // A local tool that forwards nothing is still local.
  assert.equal((await local.request('GET', '/clients')).status, 200);
  const warnings = local.logs.filter((line) => line.includes('SVC_TRUST_PROXY'));
  assert.equal(warnings.length, 1, 'one warning, not one per request');
  assert.equal(JSON.parse(warnings[0]!).level, 40);
  assert.match(warnings[0]!, /"peer":"(::ffff:)?127\.0\.0\.1"/);

  // Behind a proxy the service was told about there is nothing to warn about.
  const proxied = await createTestApp({}, { SVC_TRUST_PROXY: '127.0.0.1' });
  const secure = await proxied.request('GET', '/clients', {
    headers: { 'x-forwarded-for': REMOTE, 'x-forwarded-proto': 'https' },
  });
  assert.equal(secure.status, 200);
  assert.ok(!proxied.logs.some((line) => line.includes('SVC_TRUST_PROXY')));
});

test('behind an untrusted local proxy the per-address limit counts the hop the proxy appended, not the proxy', async () => {
  const local = await createTestApp({}, { SVC_RATE_LIMIT_ADDRESS: '3', SVC_REQUIRE_HTTPS: 'off' });
  const from = (xff: string) => local.request('GET', '/clients', { headers: { 'x-forwarded-for': xff } });
  for (let i = 0; i < 3; i++) assert.equal((await from('198.51.100.1')).status, 200);
  const limited = await from('198.51.100.1');
  assert.equal(limited.status, 429);
  assert.equal(code(limited), 'RATE_LIMIT_EXCEEDED');
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  // What a client writes in front of the proxy's own entry changes nothing: the last entry is counted.
  assert.equal((await from('10.9.9.9, 198.51.100.1')).status, 429);
  // Another client of the same proxy has a bucket of its own.
  assert.equal((await from('198.51.100.2')).status, 200);
  const forwarded = await local.request('GET', '/clients', { headers: { forwarded: 'for="[2001:db8::5]:4711"' } });
  assert.equal(forwarded.status, 200);
});

test('SVC_REQUIRE_HTTPS=always refuses loopback plain HTTP; X-Forwarded-Proto counts only from a trusted proxy', async () => {
  const always = await createTestApp({}, { SVC_REQUIRE_HTTPS: 'always' });
  const plain = await always.request('GET', '/clients');
  assert.equal(plain.status, 403);
  assert.equal(code(plain), 'HTTPS_REQUIRED');
  const untrusted = await always.request('GET', '/clients', { headers: { 'x-forwarded-proto': 'https' } });
  assert.equal(untrusted.status, 403);
  assert.equal(code(untrusted), 'HTTPS_REQUIRED');

  const proxied = await createTestApp({}, { SVC_REQUIRE_HTTPS: 'always', SVC_TRUST_PROXY: '127.0.0.1' });
  const viaProxy = await proxied.request('GET', '/clients', {
    headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': REMOTE },
  });
  assert.equal(viaProxy.status, 200, viaProxy.text);
  const plainViaProxy = await proxied.request('GET', '/clients', { headers: { 'x-forwarded-proto': 'http' } });
  assert.equal(code(plainViaProxy), 'HTTPS_REQUIRED');
});

test('SVC_REQUIRE_HTTPS=on behind a trusted local proxy judges the forwarded client, not the proxy', async () => {
  const proxied = await createTestApp({}, { SVC_TRUST_PROXY: '127.0.0.1' });
  const remote = await proxied.request('GET', '/clients', { headers: { 'x-forwarded-for': REMOTE } });
  assert.equal(remote.status, 403);
  assert.equal(code(remote), 'HTTPS_REQUIRED');
  const secure = await proxied.request('GET', '/clients', {
    headers: { 'x-forwarded-for': REMOTE, 'x-forwarded-proto': 'https' },
  });
  assert.equal(secure.status, 200);
  assert.equal((await proxied.request('GET', '/clients')).status, 200);
});

test('SVC_REQUIRE_HTTPS=off lets plain HTTP through from anywhere', async () => {
  const off = await createTestApp({}, { SVC_REQUIRE_HTTPS: 'off' });
  const remote = await inject(off, { path: '/clients' });
  assert.equal(remote.statusCode, 200, remote.body);
  const noCompany = await off.app.inject({ method: 'GET', url: '/api/v3/clients', remoteAddress: REMOTE });
  assert.equal(noCompany.json().error.code, 'MISSING_COMPANY');
});
