import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type KeyName } from '../helpers.ts';
import { fill, makeFixtures, namesRecord, paramsOf } from '../support/fixtures.ts';
import { as, sessionFor } from '../support/sessions.ts';
import { hasTier, type Tier } from '../../src/platform/scopes.ts';

const t = await createTestApp();
const V3 = '/api/v3';
const ACCESS_CODES = new Set(['FORBIDDEN', 'FINANCIAL_SCOPE_REQUIRED', 'PERSONAL_KEY_CANNOT_MANAGE_KEYS']);

/** Every v3 route that needs credentials, straight from the app's route table. */
const routes = t.app.routeTable.filter(
  (r) =>
    r.url.startsWith(`${V3}/`) &&
    r.config.tier &&
    r.config.tier !== 'none' &&
    r.config.tier !== 'operator' &&
    r.method !== 'HEAD',
);

const scopesOf: Record<KeyName, string[]> = {
  read: ['read'],
  write: ['read', 'write'],
  admin: ['read', 'write', 'admin'],
  personal: ['read', 'write'],
  personalAdmin: ['read', 'write'],
};

const bodyFor = (method: string) => (method === 'GET' || method === 'DELETE' ? undefined : {});

/**
 * The credentials the scope walk tries: the fixture's keys, and web sessions of the owner (the admin tier) and of
 * the plain member (read and write, refused where a personal key is).
 */
const ownerSession = await sessionFor(t, { personId: t.tenant.ownerPersonId });
const memberSession = await sessionFor(t, { personId: t.tenant.memberPersonId });
const credentials = [
  ...(['read', 'write', 'admin', 'personal'] as KeyName[]).map((key) => ({
    name: key as string,
    options: { key },
    scopes: scopesOf[key],
    plainMember: key === 'personal',
    keyKind: key === 'personal' ? 'personal' : 'integration',
  })),
  { name: 'owner session', options: as(ownerSession), scopes: scopesOf.admin, plainMember: false, keyKind: 'session' },
  { name: 'member session', options: as(memberSession), scopes: scopesOf.write, plainMember: true, keyKind: 'session' },
];

test('the walk sees the route table (sanity)', () => {
  assert.ok(routes.length >= 20, `only ${routes.length} routes found`);
  for (const route of routes) assert.ok(route.config.tier, `${route.method} ${route.url} declares no tier`);
});

test('scope walk: every route answers each key kind and web session according to its declared tier', async () => {
  const problems: string[] = [];
  for (const route of routes) {
    const url = fill(route.url, Object.fromEntries(paramsOf(route.url).map((p) => [p, 2147483000])));
    for (const { name: key, options, scopes, plainMember, keyKind } of credentials) {
      const response = await t.request(route.method, url, { ...options, body: bodyFor(route.method) });
      // A financial resource refuses personal keys whatever its tier (spec Authentication 8), and a plain member's
      // web session as it refuses their personal key.
      const financialRefused =
        route.config.financial === true && (keyKind === 'personal' || (keyKind === 'session' && plainMember));
      const personalRefused =
        (keyKind === 'personal' && route.config.personalKeys === false) ||
        (plainMember && route.config.companyConfig === true) ||
        financialRefused;
      const allowed = !personalRefused && hasTier(scopes, route.config.tier as Tier);
      const code = response.body?.error?.code;
      if (allowed && (response.status === 401 || (response.status === 403 && ACCESS_CODES.has(code)))) {
        problems.push(`${route.method} ${route.url} with ${key}: expected access, got ${response.status} ${code}`);
      }
      if (!allowed && !(response.status === 403 && ACCESS_CODES.has(code))) {
        problems.push(`${route.method} ${route.url} with ${key}: expected 403, got ${response.status} ${code}`);
      }
      const roleRefusal = plainMember && route.config.companyConfig === true;
      if (!allowed && roleRefusal && response.body?.error?.details?.required_role !== 'owner or admin') {
        problems.push(`${route.method} ${route.url} with ${key}: 403 body does not name the role`);
      }
      if (
        !allowed &&
        !roleRefusal &&
        code === 'FORBIDDEN' &&
        response.body.error.details?.required_scope !== route.config.tier
      ) {
        problems.push(`${route.method} ${route.url} with ${key}: 403 body does not name the tier ${route.config.tier}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

/** A body sending one money field: 'settings.currency' is `{settings: {currency: null}}`. */
const moneyBody = (field: string) => {
  const [head, key] = field.split('.') as [string, string | undefined];
  return key === undefined ? { [head]: null } : { [head]: { [key]: null } };
};

test('money walk: every money field is 403 FINANCIAL_SCOPE_REQUIRED naming it for a write key, never for admin', async () => {
  const declared = routes.filter((r) => r.config.money);
  const names = new Set(declared.map((r) => `${r.method} ${r.url.slice(V3.length)}`));
  for (const name of [
    'PATCH /invoice-sellers/:invoice_seller_id',
    'PATCH /monitors/:monitor_id',
    'PATCH /taxes/:tax_id',
    'PATCH /contracts/:contract_id',
    'PATCH /budgets/:budget_id',
    'PATCH /flextime/:flextime_id',
    'PATCH /products/:product_id',
  ])
    assert.ok(names.has(name), `${name} declares no money fields`);
  const mine = await makeFixtures(t, t.tenant, new Set(declared.flatMap((r) => paramsOf(r.url))));
  const problems: string[] = [];
  for (const route of declared) {
    if (route.config.tier === 'financials') problems.push(`${route.url}: money fields on a financials route`);
    const url = fill(route.url, mine);
    for (const field of route.config.money!.write) {
      const body = moneyBody(field);
      const write = await t.request(route.method, url, { key: 'write', body });
      const error = write.body?.error;
      if (write.status !== 403 || error?.code !== 'FINANCIAL_SCOPE_REQUIRED' || error.details?.fields?.join() !== field)
        problems.push(`${route.method} ${route.url} ${field} with write: ${write.status} ${JSON.stringify(error)}`);
      const admin = await t.request(route.method, url, { key: 'admin', body });
      if (admin.status === 403 && ACCESS_CODES.has(admin.body?.error?.code))
        problems.push(`${route.method} ${route.url} ${field} with admin: ${admin.status} ${admin.body.error.code}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('read money walk: a key without financials is answered the record with its money fields null, lists []', async () => {
  const declared = routes.filter((r) => r.config.money?.read);
  assert.ok(declared.length >= 6, `only ${declared.length} routes hide money on read`);
  const mine = await makeFixtures(t, t.tenant, new Set(declared.flatMap((r) => paramsOf(r.url))));
  const problems: string[] = [];
  for (const route of declared) {
    const url = fill(route.url, mine);
    const etag = (await t.request('GET', url, { key: 'admin' })).headers.get('etag')!;
    const res = await t.request(route.method, url, { key: 'write', body: {}, headers: { 'if-match': etag } });
    if (res.status !== 200) problems.push(`${route.method} ${route.url} with write: ${res.status} ${res.text}`);
    for (const field of route.config.money!.read!) {
      const value = res.body?.data?.[field];
      if (!(value === null || (Array.isArray(value) && value.length === 0)))
        problems.push(`${route.method} ${route.url}: ${field} reads ${JSON.stringify(value)} to a write key`);
    }
  }
  assert.deepEqual(problems, []);
});

test("company configuration walk: every route declaring it is refused for a plain member's personal key, open to an owner's", async () => {
  const configRoutes = routes.filter((r) => r.config.companyConfig === true);
  const declared = new Set(configRoutes.map((r) => `${r.method} ${r.url.slice(V3.length)}`));
  for (const resource of ['/teams', '/client-groups', '/topics', '/roles', '/workflow-roles'])
    assert.ok(declared.has(`POST ${resource}`), `POST ${resource} does not declare companyConfig`);
  const problems: string[] = [];
  for (const route of configRoutes) {
    if (route.method === 'GET') problems.push(`${route.url}: a read declares companyConfig`);
    const url = fill(route.url, Object.fromEntries(paramsOf(route.url).map((p) => [p, 2147483000])));
    const member = await t.request(route.method, url, { key: 'personal', body: bodyFor(route.method) });
    const error = member.body?.error;
    if (member.status !== 403 || error?.code !== 'FORBIDDEN' || error.details?.required_role !== 'owner or admin')
      problems.push(`${route.method} ${route.url} with a member's personal key: got ${member.status} ${error?.code}`);
    for (const key of ['admin', 'personalAdmin'] as KeyName[]) {
      const response = await t.request(route.method, url, { key, body: bodyFor(route.method) });
      if (response.status === 401 || (response.status === 403 && ACCESS_CODES.has(response.body?.error?.code)))
        problems.push(`${route.method} ${route.url} with ${key}: expected access, got ${response.status}`);
    }
  }
  assert.deepEqual(problems, []);
});

test("tenant walk: another company's ids answer 404 on every route and change nothing", async () => {
  const other = await t.newTenant({ name: 'Intruder Co' });
  const allParams = new Set(routes.flatMap((r) => paramsOf(r.url)));
  const mine = await makeFixtures(t, t.tenant, allParams);
  const problems: string[] = [];
  const withParams = routes.filter((r) => namesRecord(r.url));
  // Deletes last, so every other route still finds the records it is aimed at.
  withParams.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
  for (const route of withParams) {
    const url = fill(route.url, mine);
    const response = await t.request(route.method, url, { key: 'admin', tenant: other, body: bodyFor(route.method) });
    // The spec answers an upload to another company's task or note with 400 INVALID_PARENT, not 404.
    const invalidParent = response.status === 400 && response.body?.error?.code === 'INVALID_PARENT';
    if (response.status !== 404 && !invalidParent)
      problems.push(
        `${route.method} ${route.url}: expected 404 for another company's ids, got ${response.status} ${response.body?.error?.code ?? ''}`,
      );
  }
  assert.deepEqual(problems, []);
  for (const route of withParams.filter((r) => r.method === 'GET')) {
    const response = await t.request('GET', fill(route.url, mine), { key: 'admin' });
    assert.ok(
      response.status < 400 || response.status === 409,
      `owner lost access to ${route.url} after the walk: ${response.status}`,
    );
  }
});

/** A list's rows: `data` of a list envelope, or `items` of a report (GET /missed-billing). */
const listed = (body: any): any[] =>
  Array.isArray(body?.data) ? body.data : Array.isArray(body?.items) ? body.items : [];

test("list walk: another company's lists and id filters never show this company's rows", async () => {
  const other = await t.newTenant({ name: 'Lister Co' });
  const allParams = new Set(routes.flatMap((r) => paramsOf(r.url)));
  const mine = await makeFixtures(t, t.tenant, allParams);
  const problems: string[] = [];
  for (const route of routes.filter((r) => r.method === 'GET' && paramsOf(r.url).length === 0)) {
    const plain = await t.request('GET', route.url, { key: 'admin', tenant: other });
    const rows = listed(plain.body);
    for (const row of rows)
      if (row.company_id && row.company_id !== other.companyId)
        problems.push(`${route.url} shows company ${row.company_id}`);
    for (const filter of route.config.filters ?? []) {
      if (!filter.endsWith('_id') || !(filter in mine)) continue;
      const filtered = await t.request('GET', `${route.url}?${filter}=${mine[filter]}`, {
        key: 'admin',
        tenant: other,
      });
      if (filtered.status === 200 && listed(filtered.body).length > 0)
        problems.push(`${route.url}?${filter}=<other company's id> returned rows`);
    }
  }
  assert.deepEqual(problems, []);
});

/** Conventions 3: the spec's cursor-mode lists, plus the change feed (a stable addition, decision 0050). */
const CURSOR_LISTS = new Set(
  [
    '/clients',
    '/tasks',
    '/time-entries',
    '/contacts',
    '/invoices',
    '/members',
    '/products',
    '/topics',
    '/contracts',
    '/client-groups',
    '/invoice-sellers',
    '/projects',
    '/monitors',
    '/clients/:client_id/monitors',
    '/suppliers',
    '/events',
  ].map((path) => `${V3}${path}`),
);

test("cursor walk: only the spec's cursor-mode lists answer next_cursor; every other list refuses a cursor", async () => {
  const document = (await t.request('GET', `${V3}/openapi.json`, { key: null, company: null })).body;
  const toOpenApi = (url: string) => url.slice(V3.length).replace(/:(\w+)/g, '{$1}');
  const lists = routes.filter((r) => {
    const parameters: Array<{ in: string; name: string }> = document.paths[toOpenApi(r.url)]?.get?.parameters ?? [];
    return r.method === 'GET' && parameters.some((p) => p.in === 'query' && p.name === 'cursor');
  });
  for (const path of CURSOR_LISTS)
    assert.ok(
      lists.some((r) => r.url === path),
      `${path} is not a list route`,
    );
  const mine = await makeFixtures(t, t.tenant, new Set(lists.flatMap((r) => paramsOf(r.url))));
  for (const name of ['Cursor walk A', 'Cursor walk B'])
    assert.equal((await t.request('POST', '/clients', { body: { name } })).status, 201);
  // A genuine cursor (signed, of another list) is refused by an offset-only list all the same.
  const issued: string = (await t.request('GET', '/clients?limit=1')).body.meta.next_cursor;
  assert.ok(issued, 'the client list issues cursors');
  const problems: string[] = [];
  for (const route of lists) {
    const url = fill(route.url, mine);
    const page = await t.request('GET', `${url}?limit=1`, { key: 'admin' });
    if (page.status !== 200 || !page.body?.meta) continue; // needs a filter (e.g. ?task_id=): not a plain list
    const cursorMode = CURSOR_LISTS.has(route.url);
    if (cursorMode !== 'next_cursor' in page.body.meta)
      problems.push(`${route.url}: next_cursor ${cursorMode ? 'missing' : 'present on an offset-only list'}`);
    const cursor = encodeURIComponent(route.url === `${V3}/clients` ? 'eyJ9.x' : issued);
    const refused = await t.request('GET', `${url}?cursor=${cursor}`, { key: 'admin' });
    const reason = refused.body?.error?.details?.reason;
    if (refused.status !== 400 || refused.body?.error?.code !== 'INVALID_CURSOR')
      problems.push(`${route.url}: a cursor got ${refused.status} ${refused.body?.error?.code}`);
    else if (!cursorMode && reason !== 'OFFSET_ONLY')
      problems.push(`${route.url}: a cursor on an offset-only list was refused as ${reason ?? 'malformed'}`);
  }
  assert.deepEqual(problems, []);
});

/**
 * Item 16 (decision 0050): every row of the spec written "GET/POST/PATCH/DELETE, write" (and the supplier types'
 * "GET/PATCH, write") needs write on every method, reads included; endpoints.tsv reads them the same way.
 */
const WRITE_TIER_RESOURCES = [
  '/projects',
  '/suppliers',
  '/supplier-types',
  '/notes',
  '/product-fields',
  '/workflow-roles',
  '/roles',
  '/content-templates',
  '/client-members',
  '/task-automations',
  '/delegations',
];

test('write-tier walk: the resources the spec lists as write need write for GET too', async () => {
  const problems: string[] = [];
  for (const resource of WRITE_TIER_RESOURCES) {
    const own = routes.filter((r) => new RegExp(`^${V3}${resource}(/:\\w+)?$`).test(r.url));
    const reads = own.filter((r) => r.method === 'GET');
    if (reads.length !== 2) problems.push(`${resource}: expected a list and a single read, found ${reads.length} GETs`);
    for (const route of own)
      if (route.config.tier !== 'write') problems.push(`${route.method} ${route.url} declares ${route.config.tier}`);
  }
  assert.deepEqual(problems, []);
  const read = await t.request('GET', '/suppliers', { key: 'read' });
  assert.equal(read.status, 403);
  assert.deepEqual(read.body.error.details, { required_scope: 'write' });
});
