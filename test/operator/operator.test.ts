import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';

// SVC_OPERATOR_TOKEN must be at least 32 bytes.
const TOKEN = 'operator-secret-token-of-32-bytes-at-least';
const t = await createTestApp({ operatorToken: TOKEN });
const auth = { authorization: `Bearer ${TOKEN}` };
const MISSING = '00000000-0000-4000-8000-000000000000';

const op = (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) =>
  t.request(method, `/operator${path}`, { key: null, company: null, headers, body });

async function newCompany(body: Record<string, unknown> = { name: 'Acme' }) {
  const created = await op('POST', '/companies', body);
  assert.equal(created.status, 201, created.text);
  return created.body as {
    company_id: string;
    owner: { person_id: number; member_id: number; name: string; email: string | null };
    api_key: { id: number; full_key: string; scopes: string[] };
  };
}

test('POST /operator/companies creates a tenant with an active owner and an admin key', async () => {
  const created = await newCompany({
    name: 'Acme',
    timezone: 'Europe/Tallinn',
    owner: { name: 'Ann', surname: 'Smith', email: 'ann@acme.example' },
  });
  assert.match(created.company_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.deepEqual(Object.keys(created).sort(), ['api_key', 'company_id', 'owner']);
  assert.equal(created.owner.name, 'Ann');
  assert.equal(created.owner.email, 'ann@acme.example');
  assert.match(created.api_key.full_key, /^svc_live_/);
  assert.deepEqual(created.api_key.scopes, ['read', 'write', 'admin']);

  const company = await t.db.db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', created.company_id)
    .executeTakeFirstOrThrow();
  assert.equal(company.name, 'Acme');
  assert.equal(company.timezone, 'Europe/Tallinn');
  assert.equal(company.currency, 'EUR');
  assert.equal(company.subscription_status, 'active');
  assert.equal(company.plan, 'pro');
  const member = await t.db.db
    .selectFrom('members')
    .selectAll()
    .where('company_id', '=', created.company_id)
    .where('id', '=', created.owner.member_id)
    .executeTakeFirstOrThrow();
  assert.equal(member.person_id, created.owner.person_id);
  assert.equal(member.role, 'owner');
  assert.equal(member.status, 'active');
  const key = await t.db.db
    .selectFrom('api_keys')
    .selectAll()
    .where('company_id', '=', created.company_id)
    .where('id', '=', created.api_key.id)
    .executeTakeFirstOrThrow();
  assert.equal(key.kind, 'integration');
  assert.notEqual(key.key_hash, created.api_key.full_key, 'only a hash of the key is stored');

  // The key works at once against v3 and sees only the new, empty tenant.
  const clients = await t.request('GET', '/clients', { key: created.api_key.full_key, company: created.company_id });
  assert.equal(clients.status, 200, clients.text);
  assert.deepEqual(clients.body.data, []);
});

test('company defaults: timezone UTC, currency EUR, owner named Owner without email', async () => {
  const created = await newCompany({ name: 'Defaults Ltd' });
  assert.equal(created.owner.name, 'Owner');
  assert.equal(created.owner.email, null);
  const company = await t.db.db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', created.company_id)
    .executeTakeFirstOrThrow();
  assert.equal(company.timezone, 'UTC');
  assert.equal(company.currency, 'EUR');
  const withCurrency = await newCompany({ name: 'Krona AB', currency: 'SEK' });
  const stored = await t.db.db
    .selectFrom('companies')
    .select('currency')
    .where('id', '=', withCurrency.company_id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.currency, 'SEK');
});

test('company create validation: bad timezone, missing name, unknown field, bad currency', async () => {
  const before = await t.db.db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const badZone = await op('POST', '/companies', { name: 'X', timezone: 'Mars/Olympus' });
  assert.equal(badZone.status, 400);
  assert.equal(badZone.body.error.code, 'VALIDATION_ERROR');
  assert.equal(badZone.body.error.details.field, 'timezone');
  assert.match(badZone.body.error.message, /Mars\/Olympus/);
  for (const body of [{}, { name: '' }, { name: 'X', colour: 'red' }, { name: 'X', currency: 'euro' }]) {
    const res = await op('POST', '/companies', body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(typeof res.body.error.message, 'string');
  }
  const after = await t.db.db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(after.n), Number(before.n), 'nothing stored on a refused create');
});

test('PATCH /operator/companies/{id} changes plan, subscription, timezone and merges features', async () => {
  const { company_id } = await newCompany();
  const res = await op('PATCH', `/companies/${company_id}`, {
    timezone: 'America/New_York',
    features: { drive: true },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.id, company_id);
  assert.equal(res.body.name, 'Acme');
  assert.equal(res.body.timezone, 'America/New_York');
  assert.equal(res.body.subscription_status, 'active');
  assert.equal(res.body.plan, 'pro');
  assert.deepEqual(res.body.features, { billing: true, analytics: true, drive: true });
  assert.match(res.body.updated_at, /Z$/);
  const second = await op('PATCH', `/companies/${company_id}`, { features: { billing: false } });
  assert.deepEqual(
    second.body.features,
    { billing: false, analytics: true, drive: true },
    'features not sent stay as they were',
  );
  assert.ok(second.body.updated_at >= res.body.updated_at);
  const stored = await t.db.db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', company_id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.timezone, 'America/New_York');
  assert.deepEqual(stored.features, { billing: false, analytics: true, drive: true });
});

test('a lapsed subscription makes v3 read-only with 403 SUBSCRIPTION_READ_ONLY', async () => {
  const created = await newCompany();
  const v3 = { key: created.api_key.full_key, company: created.company_id };
  const lapsed = await op('PATCH', `/companies/${created.company_id}`, { subscription_status: 'lapsed' });
  assert.equal(lapsed.status, 200);
  assert.equal(lapsed.body.subscription_status, 'lapsed');
  const write = await t.request('POST', '/clients', { ...v3, body: { name: 'Blocked' } });
  assert.equal(write.status, 403);
  assert.equal(write.body.error.code, 'SUBSCRIPTION_READ_ONLY');
  assert.equal((await t.request('GET', '/clients', v3)).status, 200, 'reads stay open');
  await op('PATCH', `/companies/${created.company_id}`, { subscription_status: 'active' });
  assert.equal((await t.request('POST', '/clients', { ...v3, body: { name: 'Allowed' } })).status, 201);
});

test('the basic plan gets 403 PLAN_UPGRADE_REQUIRED on every v3 request', async () => {
  const created = await newCompany();
  const v3 = { key: created.api_key.full_key, company: created.company_id };
  const basic = await op('PATCH', `/companies/${created.company_id}`, { plan: 'basic' });
  assert.equal(basic.status, 200);
  assert.equal(basic.body.plan, 'basic');
  for (const [method, body] of [
    ['GET', undefined],
    ['POST', { name: 'X' }],
  ] as const) {
    const res = await t.request(method, '/clients', { ...v3, body });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'PLAN_UPGRADE_REQUIRED');
  }
  await op('PATCH', `/companies/${created.company_id}`, { plan: 'pro' });
  assert.equal((await t.request('GET', '/clients', v3)).status, 200);
});

test('company update errors: unknown company 404, malformed id, bad timezone, bad values', async () => {
  const missing = await op('PATCH', `/companies/${MISSING}`, { plan: 'basic' });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, 'NOT_FOUND');
  const malformed = await op('PATCH', '/companies/not-a-uuid', { plan: 'basic' });
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.error.code, 'VALIDATION_ERROR');
  const { company_id } = await newCompany();
  const badZone = await op('PATCH', `/companies/${company_id}`, { timezone: 'Nowhere/Land' });
  assert.equal(badZone.status, 400);
  assert.equal(badZone.body.error.code, 'VALIDATION_ERROR');
  for (const body of [
    { plan: 'gold' },
    { subscription_status: 'paused' },
    { features: { chat: true } },
    { features: { billing: 'yes' } },
    { name: 'Renamed' },
  ]) {
    const res = await op('PATCH', `/companies/${company_id}`, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const stored = await t.db.db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', company_id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.timezone, 'UTC');
  assert.equal(stored.plan, 'pro');
});

test('POST /operator/companies/{id}/members adds a person and a member', async () => {
  const { company_id } = await newCompany();
  const res = await op('POST', `/companies/${company_id}/members`, {
    name: 'Lia',
    surname: 'Limited',
    email: 'lia@acme.example',
    role: 'admin',
    status: 'limited',
  });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['member_id', 'person_id']);
  const member = await t.db.db
    .selectFrom('members')
    .innerJoin('people', (j) =>
      j.onRef('people.company_id', '=', 'members.company_id').onRef('people.id', '=', 'members.person_id'),
    )
    .select([
      'members.role',
      'members.status',
      'members.initials',
      'people.name',
      'people.surname',
      'people.email',
      'people.id as person_id',
    ])
    .where('members.company_id', '=', company_id)
    .where('members.id', '=', res.body.member_id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(member, {
    role: 'admin',
    status: 'limited',
    initials: 'LL',
    name: 'Lia',
    surname: 'Limited',
    email: 'lia@acme.example',
    person_id: res.body.person_id,
  });
});

test('member add errors: unknown company 404, invalid role, status and email 400', async () => {
  const valid = { name: 'Max', email: 'max@acme.example', role: 'member', status: 'active' };
  const missing = await op('POST', `/companies/${MISSING}/members`, valid);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, 'NOT_FOUND');
  const { company_id } = await newCompany();
  for (const body of [
    { ...valid, role: 'boss' },
    { ...valid, status: 'gone' },
    { ...valid, email: 'not-an-email' },
    { name: 'Max', role: 'member', status: 'active' },
  ]) {
    const res = await op('POST', `/companies/${company_id}/members`, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const members = await t.db.db.selectFrom('members').select('id').where('company_id', '=', company_id).execute();
  assert.equal(members.length, 1, 'only the owner');
});

test('a wrong, missing or non-Bearer token is 401 UNAUTHORIZED, before any validation', async () => {
  const cases: Array<Record<string, string>> = [
    {},
    { authorization: 'Bearer wrong' },
    { authorization: TOKEN },
    { authorization: `Basic ${TOKEN}` },
    { authorization: 'Bearer ' },
  ];
  // Each case from its own loopback address: one address may fail only 10 times a minute.
  for (const [i, headers] of cases.entries()) {
    for (const [method, path] of [
      ['POST', '/companies'],
      ['PATCH', `/companies/${MISSING}`],
      ['POST', `/companies/${MISSING}/members`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `/operator${path}`,
        remoteAddress: `127.0.1.${i + 1}`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: {},
      });
      assert.equal(res.statusCode, 401, `${method} ${path} ${JSON.stringify(headers)}`);
      assert.equal(res.json().error.code, 'UNAUTHORIZED');
    }
  }
  const v3Key = await op('POST', '/companies', { name: 'X' }, { 'x-api-key': t.tenant.keys.admin });
  assert.equal(v3Key.status, 401, 'a v3 API key is not an operator credential');
});

test('the Bearer scheme name is case-insensitive', async () => {
  const res = await op('POST', '/companies', { name: 'Lowercase' }, { authorization: `bearer ${TOKEN}` });
  assert.equal(res.status, 201, res.text);
});

test('the operator API is not part of the v3 document', async () => {
  const doc = await t.request('GET', '/openapi.json', { key: null, company: null });
  assert.equal(doc.status, 200);
  assert.ok(!Object.keys(doc.body.paths).some((p) => p.includes('operator')));
  assert.ok(!JSON.stringify(doc.body).includes('/operator'));
});
