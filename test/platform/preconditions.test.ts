import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { fill, makeFixtures, paramsOf } from '../support/fixtures.ts';

const t = await createTestApp();
const V3 = '/api/v3';

/** Every route that can answer 428: the spec puts it (or some of its fields) behind If-Match. */
const guarded = t.app.routeTable
  .filter((r) => r.url.startsWith(`${V3}/`) && r.method !== 'HEAD')
  .filter((r) => (r.config.errorCodes ?? []).includes('PRECONDITION_REQUIRED'))
  // Deletes last, so the other routes still find the records they are aimed at.
  .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

const bodyFor = (method: string) => (method === 'DELETE' ? undefined : {});

test('the walk sees the routes behind If-Match (sanity)', () => {
  const names = new Set(guarded.map((r) => `${r.method} ${r.url.slice(V3.length)}`));
  for (const name of [
    'PATCH /invoices/:invoice_id',
    'POST /invoices/:invoice_id/mark-paid',
    'POST /invoices/:invoice_id/send',
    'PATCH /contracts/:contract_id',
    'DELETE /contracts/:contract_id',
    'PATCH /agreements/:agreement_id',
  ])
    assert.ok(names.has(name), `${name} does not declare PRECONDITION_REQUIRED`);
});

test('If-Match: * answers exactly as a missing If-Match wherever one is required, and writes nothing', async () => {
  const made = await makeFixtures(t, t.tenant, new Set(guarded.flatMap((r) => paramsOf(r.url))));
  const problems: string[] = [];
  for (const route of guarded) {
    const url = fill(route.url, made);
    const body = bodyFor(route.method);
    const missing = await t.request(route.method, url, { body });
    const wildcard = await t.request(route.method, url, { body, headers: { 'if-match': '*' } });
    const [a, b] = [missing, wildcard].map((r) => `${r.status} ${r.body?.error?.code ?? ''}`);
    if (a !== b) problems.push(`${route.method} ${route.url}: no If-Match ${a}, If-Match: * ${b}`);
  }
  assert.deepEqual(problems, []);
});

test('If-Match: * on a required precondition is 428 naming the reason; a concrete ETag passes', async () => {
  const made = await makeFixtures(t, t.tenant, ['contract_id']);
  const path = `/contracts/${made.contract_id}`;
  const wildcard = await t.request('PATCH', path, { body: { name: 'Renamed' }, headers: { 'if-match': '*' } });
  assert.equal(wildcard.status, 428);
  assert.equal(wildcard.body.error.code, 'PRECONDITION_REQUIRED');
  assert.equal(wildcard.body.error.details.reason, 'WILDCARD_NOT_ACCEPTED');
  const read = await t.request('GET', path);
  assert.equal(read.body.data.name, 'Walk contract', 'nothing written');
  const etag = read.headers.get('etag')!;
  const ok = await t.request('PATCH', path, { body: { name: 'Renamed' }, headers: { 'if-match': etag } });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.name, 'Renamed');
});

test('where If-Match is optional, * still means any current version', async () => {
  const made = await makeFixtures(t, t.tenant, ['invoice_seller_id']);
  const res = await t.request('PATCH', `/invoice-sellers/${made.invoice_seller_id}`, {
    body: { status: 'archived' },
    headers: { 'if-match': '*' },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.status, 'archived');
});
