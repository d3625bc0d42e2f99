import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { hashKey } from '../../../src/platform/keys.ts';

const t = await createTestApp();

async function createKey(body: Record<string, unknown>, key = 'admin') {
  const response = await t.request('POST', '/auth/keys', { key, body });
  assert.equal(response.status, 201, response.text);
  return response.body.data as {
    id: number;
    full_key: string;
    key_prefix: string;
    scopes: string[];
    kind: string;
    person_id: number | null;
  };
}

const storedKey = (id: number) =>
  t.db.db
    .selectFrom('api_keys')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

test('create answers the full key once; the key works at once with exactly its scopes', async () => {
  const created = await t.request('POST', '/auth/keys', { body: { name: 'Reporting', scopes: ['read'] } });
  assert.equal(created.status, 201, created.text);
  const data = created.body.data;
  assert.match(data.full_key, /^svc_live_/);
  assert.ok(data.full_key.startsWith(data.key_prefix));
  assert.equal(data.name, 'Reporting');
  assert.equal(data.kind, 'integration');
  assert.equal(data.auth_type, 'api_key');
  assert.deepEqual(data.scopes, ['read']);
  assert.equal(data.person_id, t.tenant.ownerPersonId, "attributed to the creating key's person");
  assert.equal(data.is_active, true);
  assert.equal(data.last_used_at, null);
  assert.equal(data.expires_at, null);
  assert.equal(data.ip_allowlist, null);
  assert.match(data.created_at, /Z$/);
  assert.equal(created.headers.get('idempotency-replayed'), null);

  const stored = await storedKey(data.id);
  assert.notEqual(stored.key_hash, data.full_key);
  assert.equal(stored.key_hash, hashKey(data.full_key));
  assert.ok(!JSON.stringify(stored).includes(data.full_key), 'the secret itself is not stored');

  assert.equal((await t.request('GET', '/clients', { key: data.full_key })).status, 200);
  const write = await t.request('POST', '/clients', { key: data.full_key, body: { name: 'Nope' } });
  assert.equal(write.status, 403);
  assert.equal(write.body.error.code, 'FORBIDDEN');
  assert.equal(write.body.error.details.required_scope, 'write');
  // The full key is never shown again.
  const read = await t.request('GET', '/auth/keys?limit=200');
  assert.ok(!read.text.includes(data.full_key));
});

test('scopes default to read and are stored expanded', async () => {
  assert.deepEqual((await createKey({ name: 'Default' })).scopes, ['read']);
  const admin = await createKey({ name: 'Admin', scopes: ['admin'] });
  assert.deepEqual(admin.scopes, ['read', 'write', 'admin']);
  assert.deepEqual((await storedKey(admin.id)).scopes, ['read', 'write', 'admin']);
  const created = await t.request('POST', '/clients', { key: admin.full_key, body: { name: 'Made by new admin key' } });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual((await createKey({ name: 'Attach', scopes: ['write:attachments'] })).scopes, ['write:attachments']);
});

test('create validates its body', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(256) }, 'name'],
    [{ name: 'k', scopes: ['financials'] }, 'scopes.0'],
    [{ name: 'k', scopes: [] }, 'scopes'],
    [{ name: 'k', kind: 'robot' }, 'kind'],
    [{ name: 'k', expires_at: 'tomorrow' }, 'expires_at'],
    [{ name: 'k', ip_allowlist: 'x' }, 'ip_allowlist'],
    [{ name: 'k', key_hash: 'x' }, 'key_hash'],
  ];
  for (const [body, field] of cases) {
    const response = await t.request('POST', '/auth/keys', { body });
    assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
    assert.equal(response.body.error.code, 'VALIDATION_ERROR');
    assert.equal(response.body.error.details.errors[0].field, field, JSON.stringify(body));
  }
  const missing = await t.request('POST', '/auth/keys', { body: {} });
  assert.match(missing.body.error.message, /name/);
});

test('expires_at must be in the future; a future one is stored and shown', async () => {
  const past = await t.request('POST', '/auth/keys', { body: { name: 'Old', expires_at: '2020-01-01T00:00:00Z' } });
  assert.equal(past.status, 400);
  assert.equal(past.body.error.code, 'VALIDATION_ERROR');
  assert.equal(past.body.error.details.field, 'expires_at');
  const future = new Date(Date.now() + 86_400_000).toISOString();
  const key = await createKey({ name: 'Soon', expires_at: future });
  assert.equal((key as unknown as { expires_at: string }).expires_at, future);
  assert.equal((await t.request('GET', '/auth/me', { key: key.full_key })).status, 200);
});

test('ip_allowlist entries must be addresses or CIDR ranges', async () => {
  for (const bad of [['10.0.0.0/33'], ['not-an-ip'], ['10.0.0.1', '300.1.1.1']]) {
    const response = await t.request('POST', '/auth/keys', { body: { name: 'Net', ip_allowlist: bad } });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.error.code, 'VALIDATION_ERROR');
    assert.equal(response.body.error.details.field, 'ip_allowlist');
  }
  const ok = await createKey({ name: 'Net', ip_allowlist: ['10.0.0.0/8', '::1', '192.168.1.7'] });
  assert.deepEqual((ok as unknown as { ip_allowlist: string[] }).ip_allowlist, ['10.0.0.0/8', '::1', '192.168.1.7']);
});

test('integration key person_id must be a person of this company', async () => {
  const other = await t.newTenant();
  const foreign = await t.request('POST', '/auth/keys', { body: { name: 'Foreign', person_id: other.ownerPersonId } });
  assert.equal(foreign.status, 400);
  assert.equal(foreign.body.error.code, 'INVALID_PERSON');
  const missing = await t.request('POST', '/auth/keys', { body: { name: 'Missing', person_id: 999999 } });
  assert.equal(missing.body.error.code, 'INVALID_PERSON');
  assert.equal(
    (await createKey({ name: 'Member attributed', person_id: t.tenant.memberPersonId })).person_id,
    t.tenant.memberPersonId,
  );
  assert.equal((await createKey({ name: 'Unattributed', person_id: null })).person_id, null);
});

test("personal keys: read+write only, default person is the caller's, person must be an active member", async () => {
  const scoped = await t.request('POST', '/auth/keys', { body: { name: 'P', kind: 'personal', scopes: ['read'] } });
  assert.equal(scoped.status, 400);
  assert.equal(scoped.body.error.code, 'VALIDATION_ERROR');
  const nullScopes = await t.request('POST', '/auth/keys', { body: { name: 'P', kind: 'personal', scopes: null } });
  assert.equal(nullScopes.status, 400);
  assert.equal(nullScopes.body.error.code, 'VALIDATION_ERROR');

  const mine = await createKey({ name: 'Mine', kind: 'personal' });
  assert.equal(mine.kind, 'personal');
  assert.equal(mine.person_id, t.tenant.ownerPersonId);
  assert.deepEqual(mine.scopes, ['read', 'write']);
  const forMember = await createKey({ name: 'For Mark', kind: 'personal', person_id: t.tenant.memberPersonId });
  assert.equal(forMember.person_id, t.tenant.memberPersonId);
  const me = await t.request('GET', '/auth/me', { key: forMember.full_key });
  assert.equal(me.body.data.person.person_id, t.tenant.memberPersonId);

  const other = await t.newTenant();
  for (const person_id of [other.memberPersonId, 999999, null]) {
    const response = await t.request('POST', '/auth/keys', { body: { name: 'P', kind: 'personal', person_id } });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.error.code, 'INVALID_PERSON');
  }
});

test('a personal key for an inactive member is refused with INVALID_PERSON', async () => {
  const other = await t.newTenant();
  await t.db.db
    .updateTable('members')
    .set({ status: 'inactive' })
    .where('company_id', '=', other.companyId)
    .where('person_id', '=', other.memberPersonId)
    .execute();
  const response = await t.request('POST', '/auth/keys', {
    tenant: other,
    body: { name: 'P', kind: 'personal', person_id: other.memberPersonId },
  });
  assert.equal(response.status, 400);
  assert.equal(response.body.error.code, 'INVALID_PERSON');
  assert.equal(response.body.error.details.field, 'person_id');
});

test('the list is masked, paged, and shows revoked keys as inactive', async () => {
  const created = await createKey({ name: 'Listed' });
  const revoked = await createKey({ name: 'Revoked' });
  assert.equal((await t.request('DELETE', `/auth/keys/${revoked.id}`)).status, 204);
  const list = await t.request('GET', '/auth/keys?limit=200');
  assert.equal(list.status, 200, list.text);
  assert.ok(!/full_key|key_hash/.test(list.text));
  for (const row of list.body.data) {
    assert.deepEqual(Object.keys(row).sort(), [
      'auth_type',
      'created_at',
      'expires_at',
      'grace_expires_at',
      'id',
      'ip_allowlist',
      'is_active',
      'key_prefix',
      'kind',
      'last_used_at',
      'name',
      'person_id',
      'scopes',
    ]);
  }
  const listed = list.body.data.find((k: { id: number }) => k.id === created.id);
  assert.equal(listed.key_prefix, created.key_prefix);
  assert.ok(created.full_key.startsWith(listed.key_prefix));
  assert.ok(listed.key_prefix.length < created.full_key.length);
  assert.equal(list.body.data.find((k: { id: number }) => k.id === revoked.id).is_active, false);
  assert.equal(list.body.meta.total, list.body.data.length);
  assert.equal(list.body.meta.has_more, false);

  const page = await t.request('GET', '/auth/keys?limit=2&offset=1&sort=-id');
  assert.equal(page.body.data.length, 2);
  assert.equal(page.body.meta.has_more, true);
  assert.ok(page.body.data[0].id > page.body.data[1].id);
  assert.equal(page.body.meta.next_cursor, undefined, 'offset-only list');
  const cursor = await t.request('GET', '/auth/keys?cursor=abc');
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  const unknown = await t.request('GET', '/auth/keys?kind=personal');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test("the list shows only this company's keys", async () => {
  const other = await t.newTenant();
  const list = await t.request('GET', '/auth/keys?limit=200', { tenant: other });
  const stored = await t.db.db.selectFrom('api_keys').select('id').where('company_id', '=', other.companyId).execute();
  const byId = (a: number, b: number) => a - b;
  assert.deepEqual(list.body.data.map((k: { id: number }) => k.id).sort(byId), stored.map((k) => k.id).sort(byId));
  for (const id of Object.values(other.keyIds)) assert.ok(list.body.data.some((k: { id: number }) => k.id === id));
  const mine = await t.request('GET', '/auth/keys?limit=200');
  assert.ok(!mine.body.data.some((k: { id: number }) => k.id === other.keyIds.admin));
});

test('last_used_at is set once a key is used', async () => {
  const key = await createKey({ name: 'Used later' });
  assert.equal((await storedKey(key.id)).last_used_at, null);
  assert.equal((await t.request('GET', '/clients', { key: key.full_key })).status, 200);
  const list = await t.request('GET', '/auth/keys?limit=200');
  const row = list.body.data.find((k: { id: number }) => k.id === key.id);
  assert.match(row.last_used_at, /Z$/);
  assert.ok(Math.abs(Date.parse(row.last_used_at) - Date.now()) < 60_000);
});

test('rotation: new key works, old key works during grace and stops after it', async () => {
  const old = await createKey({ name: 'Rotating', scopes: ['write'], ip_allowlist: ['127.0.0.0/8'] });
  const rotated = await t.request('POST', `/auth/keys/${old.id}/rotate`);
  assert.equal(rotated.status, 200, rotated.text);
  const { new_key: fresh, old_key_id, old_key_grace_expires_at } = rotated.body.data;
  assert.equal(old_key_id, old.id);
  assert.notEqual(fresh.id, old.id);
  assert.notEqual(fresh.full_key, old.full_key);
  assert.ok(fresh.full_key.startsWith(fresh.key_prefix));
  assert.equal(fresh.name, 'Rotating');
  assert.equal(fresh.kind, 'integration');
  assert.deepEqual(fresh.scopes, ['read', 'write']);
  assert.equal(fresh.person_id, old.person_id);
  const grace = Date.parse(old_key_grace_expires_at) - Date.now();
  assert.ok(grace > 23.9 * 3600_000 && grace <= 24 * 3600_000, `grace ${grace}`);
  const stored = await storedKey(fresh.id);
  assert.deepEqual(stored.ip_allowlist, ['127.0.0.0/8']);
  assert.equal((await storedKey(old.id)).rotated_to_id, fresh.id);

  assert.equal((await t.request('POST', '/clients', { key: fresh.full_key, body: { name: 'By new' } })).status, 201);
  assert.equal((await t.request('GET', '/clients', { key: old.full_key })).status, 200);
  const listed = (await t.request('GET', '/auth/keys?limit=200')).body.data.find(
    (k: { id: number }) => k.id === old.id,
  );
  assert.equal(listed.grace_expires_at, old_key_grace_expires_at);
  assert.equal(listed.is_active, true);

  await t.db.db
    .updateTable('api_keys')
    .set({ grace_expires_at: '2020-01-01T00:00:00Z' })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', old.id)
    .execute();
  const after = await t.request('GET', '/clients', { key: old.full_key });
  assert.equal(after.status, 401);
  assert.equal(after.body.error.code, 'UNAUTHORIZED');
  assert.equal((await t.request('GET', '/clients', { key: fresh.full_key })).status, 200);
  const relisted = (await t.request('GET', '/auth/keys?limit=200')).body.data.find(
    (k: { id: number }) => k.id === old.id,
  );
  assert.equal(relisted.is_active, false);
});

test('rotating a personal key keeps its kind and person', async () => {
  const personal = await createKey({ name: 'Mark phone', kind: 'personal', person_id: t.tenant.memberPersonId });
  const rotated = await t.request('POST', `/auth/keys/${personal.id}/rotate`);
  assert.equal(rotated.status, 200, rotated.text);
  const fresh = rotated.body.data.new_key;
  assert.equal(fresh.kind, 'personal');
  assert.equal(fresh.person_id, t.tenant.memberPersonId);
  assert.deepEqual(fresh.scopes, ['read', 'write']);
  const me = await t.request('GET', '/auth/me', { key: fresh.full_key });
  assert.equal(me.body.data.key.kind, 'personal');
  assert.equal(me.body.data.person.person_id, t.tenant.memberPersonId);
});

test('a key rotates once; revoked and expired keys do not rotate (409 KEY_NOT_ROTATABLE)', async () => {
  const key = await createKey({ name: 'Once' });
  assert.equal((await t.request('POST', `/auth/keys/${key.id}/rotate`)).status, 200);
  const again = await t.request('POST', `/auth/keys/${key.id}/rotate`);
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, 'KEY_NOT_ROTATABLE');

  const revoked = await createKey({ name: 'Revoked' });
  await t.request('DELETE', `/auth/keys/${revoked.id}`);
  assert.equal((await t.request('POST', `/auth/keys/${revoked.id}/rotate`)).body.error.code, 'KEY_NOT_ROTATABLE');

  const expired = await createKey({ name: 'Expired' });
  await t.db.db
    .updateTable('api_keys')
    .set({ expires_at: '2020-01-01T00:00:00Z' })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', expired.id)
    .execute();
  const response = await t.request('POST', `/auth/keys/${expired.id}/rotate`);
  assert.equal(response.status, 409);
  assert.equal(response.body.error.code, 'KEY_NOT_ROTATABLE');
});

test('revocation is immediate and permanent; revoking again is 404', async () => {
  const key = await createKey({ name: 'Doomed', scopes: ['write'] });
  assert.equal((await t.request('GET', '/clients', { key: key.full_key })).status, 200);
  const deleted = await t.request('DELETE', `/auth/keys/${key.id}`);
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  const after = await t.request('GET', '/clients', { key: key.full_key });
  assert.equal(after.status, 401);
  assert.equal(after.body.error.code, 'UNAUTHORIZED');
  const stored = await storedKey(key.id);
  assert.equal(stored.is_active, false);
  assert.ok(stored.revoked_at);
  const again = await t.request('DELETE', `/auth/keys/${key.id}`);
  assert.equal(again.status, 404);
  assert.equal(again.body.error.code, 'NOT_FOUND');
});

test('a rotated key in its grace period can be revoked at once', async () => {
  const key = await createKey({ name: 'Leaked' });
  await t.request('POST', `/auth/keys/${key.id}/rotate`);
  assert.equal((await t.request('DELETE', `/auth/keys/${key.id}`)).status, 204);
  assert.equal((await t.request('GET', '/clients', { key: key.full_key })).status, 401);
});

test('a key may revoke itself', async () => {
  const key = await createKey({ name: 'Self', scopes: ['admin'] });
  assert.equal((await t.request('DELETE', `/auth/keys/${key.id}`, { key: key.full_key })).status, 204);
  assert.equal((await t.request('GET', '/auth/keys', { key: key.full_key })).status, 401);
});

test("another company's key id, or an unknown one, is 404 on rotate and delete", async () => {
  const other = await t.newTenant();
  for (const id of [other.keyIds.read, 999999]) {
    const rotate = await t.request('POST', `/auth/keys/${id}/rotate`);
    assert.equal(rotate.status, 404);
    assert.equal(rotate.body.error.code, 'NOT_FOUND');
    const revoke = await t.request('DELETE', `/auth/keys/${id}`);
    assert.equal(revoke.status, 404);
    assert.equal(revoke.body.error.code, 'NOT_FOUND');
  }
  assert.equal(
    (await t.request('GET', '/clients', { tenant: other, key: 'read' })).status,
    200,
    "the other tenant's key is untouched",
  );
  const bad = await t.request('DELETE', '/auth/keys/abc');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
});

test("personal keys are refused on every /auth/keys endpoint, even an owner's", async () => {
  const target = t.tenant.keyIds.read;
  const calls: Array<[string, string, unknown]> = [
    ['GET', '/auth/keys', undefined],
    ['POST', '/auth/keys', { name: 'x' }],
    ['POST', `/auth/keys/${target}/rotate`, undefined],
    ['DELETE', `/auth/keys/${target}`, undefined],
  ];
  for (const key of ['personal', 'personalAdmin']) {
    for (const [method, path, body] of calls) {
      const response = await t.request(method, path, { key, body });
      assert.equal(response.status, 403, `${key} ${method} ${path}`);
      assert.equal(response.body.error.code, 'PERSONAL_KEY_CANNOT_MANAGE_KEYS');
    }
  }
  assert.equal((await storedKey(target)).is_active, true);
});

test('write and read keys get 403 FORBIDDEN naming admin', async () => {
  for (const key of ['write', 'read']) {
    for (const [method, path] of [
      ['GET', '/auth/keys'],
      ['POST', '/auth/keys'],
      ['POST', `/auth/keys/${t.tenant.keyIds.read}/rotate`],
      ['DELETE', `/auth/keys/${t.tenant.keyIds.read}`],
    ] as const) {
      const response = await t.request(method, path, { key, body: method === 'POST' ? { name: 'x' } : undefined });
      assert.equal(response.status, 403, `${key} ${method} ${path}`);
      assert.equal(response.body.error.code, 'FORBIDDEN');
      assert.equal(response.body.error.details.required_scope, 'admin');
    }
  }
});

test('/auth/keys is not idempotency-covered: the header is ignored and each POST makes a new key', async () => {
  const headers = { 'idempotency-key': 'same-key' };
  const first = await t.request('POST', '/auth/keys', { body: { name: 'Twice' }, headers });
  const second = await t.request('POST', '/auth/keys', { body: { name: 'Twice' }, headers });
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.notEqual(first.body.data.id, second.body.data.id);
  assert.equal(second.headers.get('idempotency-replayed'), null);
});
