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
      const personalRefused =
        (keyKind === 'personal' && route.config.personalKeys === false) ||
        (plainMember && route.config.companyConfig === true);
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
