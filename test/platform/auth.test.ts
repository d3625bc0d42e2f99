import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestApp } from '../helpers.ts';

const t = await createTestApp();

async function newKey(body: Record<string, unknown>) {
  const response = await t.request('POST', '/auth/keys', { body });
  assert.equal(response.status, 201, response.text);
  return response.body.data as { id: number; full_key: string };
}

async function expectError(response: { status: number; body: any; text: string }, status: number, code: string) {
  assert.equal(response.status, status, response.text);
  assert.equal(response.body.error.code, code);
}

const setKey = (id: number, values: Record<string, unknown>) =>
  t.db.db
    .updateTable('api_keys')
    .set(values)
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .execute();

test('company header: missing is 400 MISSING_COMPANY, malformed is 400 INVALID_COMPANY, unknown is 401 UNAUTHORIZED', async () => {
  await expectError(await t.request('GET', '/clients', { company: null }), 400, 'MISSING_COMPANY');
  await expectError(await t.request('GET', '/clients', { company: '' }), 400, 'MISSING_COMPANY');
  await expectError(await t.request('GET', '/clients', { company: 'not-a-uuid' }), 400, 'INVALID_COMPANY');
  await expectError(
    await t.request('GET', '/clients', { company: '12345678-1234-1234-1234-12345678901' }),
    400,
    'INVALID_COMPANY',
  );
  await expectError(await t.request('GET', '/clients', { company: randomUUID() }), 401, 'UNAUTHORIZED');
  // The company header is checked before the key.
  await expectError(await t.request('GET', '/clients', { company: null, key: null }), 400, 'MISSING_COMPANY');
  // Upper-case UUID text names the same company.
  assert.equal((await t.request('GET', '/clients', { company: t.tenant.companyId.toUpperCase() })).status, 200);
});

test("key header: missing is 401 MISSING_AUTH; unknown, malformed or another company's key is 401 UNAUTHORIZED", async () => {
  await expectError(await t.request('GET', '/clients', { key: null }), 401, 'MISSING_AUTH');
  await expectError(await t.request('GET', '/clients', { key: 'svc_live_nothing-like-this' }), 401, 'UNAUTHORIZED');
  await expectError(await t.request('GET', '/clients', { key: 'Bearer abc' }), 401, 'UNAUTHORIZED');
  const other = await t.newTenant();
  await expectError(await t.request('GET', '/clients', { key: other.keys.admin }), 401, 'UNAUTHORIZED');
  assert.equal((await t.request('GET', '/clients', { key: other.keys.admin, company: other.companyId })).status, 200);
});

test('an expired key is 401 UNAUTHORIZED', async () => {
  const key = await newKey({ name: 'Expiring', expires_at: new Date(Date.now() + 3_600_000).toISOString() });
  assert.equal((await t.request('GET', '/clients', { key: key.full_key })).status, 200);
  await setKey(key.id, { expires_at: new Date(Date.now() - 1000).toISOString() });
  await expectError(await t.request('GET', '/clients', { key: key.full_key }), 401, 'UNAUTHORIZED');
});

test('a revoked key is 401 UNAUTHORIZED; a rotated key stops when its grace ends', async () => {
  const revoked = await newKey({ name: 'Revoked' });
  await setKey(revoked.id, { is_active: false });
  await expectError(await t.request('GET', '/clients', { key: revoked.full_key }), 401, 'UNAUTHORIZED');
  const rotated = await newKey({ name: 'Rotated' });
  await setKey(rotated.id, { grace_expires_at: new Date(Date.now() + 60_000).toISOString() });
  assert.equal((await t.request('GET', '/clients', { key: rotated.full_key })).status, 200);
  await setKey(rotated.id, { grace_expires_at: new Date(Date.now() - 1000).toISOString() });
  await expectError(await t.request('GET', '/clients', { key: rotated.full_key }), 401, 'UNAUTHORIZED');
});

test('ip_allowlist: a request from outside the list is 403 FORBIDDEN, from inside it passes', async () => {
  const outside = await newKey({ name: 'Office only', ip_allowlist: ['10.0.0.0/8'] });
  const refused = await t.request('GET', '/clients', { key: outside.full_key });
  await expectError(refused, 403, 'FORBIDDEN');
  assert.equal(refused.body.error.details.ip, '127.0.0.1');
  const inside = await newKey({ name: 'Loopback', ip_allowlist: ['127.0.0.0/8'] });
  assert.equal((await t.request('GET', '/clients', { key: inside.full_key })).status, 200);
  const exact = await newKey({ name: 'Exact', ip_allowlist: ['192.0.2.1', '127.0.0.1'] });
  assert.equal((await t.request('GET', '/clients', { key: exact.full_key })).status, 200);
  const empty = await newKey({ name: 'Anywhere', ip_allowlist: [] });
  assert.equal((await t.request('GET', '/clients', { key: empty.full_key })).status, 200);
});

test('a personal key whose member is no longer active is 401 UNAUTHORIZED', async () => {
  const other = await t.newTenant();
  assert.equal((await t.request('GET', '/clients', { tenant: other, key: 'personal' })).status, 200);
  await t.db.db
    .updateTable('members')
    .set({ status: 'inactive' })
    .where('company_id', '=', other.companyId)
    .where('person_id', '=', other.memberPersonId)
    .execute();
  await expectError(await t.request('GET', '/clients', { tenant: other, key: 'personal' }), 401, 'UNAUTHORIZED');
  // An integration key attributed to a person is not tied to that person's membership.
  await t.db.db
    .updateTable('members')
    .set({ status: 'inactive' })
    .where('company_id', '=', other.companyId)
    .where('person_id', '=', other.ownerPersonId)
    .execute();
  assert.equal((await t.request('GET', '/clients', { tenant: other, key: 'read' })).status, 200);
});

test('using a key records last_used_at', async () => {
  const key = await newKey({ name: 'Tracked' });
  const before = await t.db.db
    .selectFrom('api_keys')
    .select('last_used_at')
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', key.id)
    .executeTakeFirstOrThrow();
  assert.equal(before.last_used_at, null);
  await t.request('GET', '/auth/me', { key: key.full_key });
  const after = await t.db.db
    .selectFrom('api_keys')
    .select('last_used_at')
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', key.id)
    .executeTakeFirstOrThrow();
  assert.ok(after.last_used_at);
  assert.ok(Math.abs(Date.parse(after.last_used_at) - Date.now()) < 60_000);
});
