import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';
import { addMember } from '../../../src/modules/companies/companies.service.ts';
import { generateKey } from '../../../src/platform/keys.ts';
import { expandScopes } from '../../../src/platform/scopes.ts';

// Key management, like webhook management, is open to owners and administrators (or a key acting for no person).

const t = await createTestApp();

/** An admin-scoped integration key attributed to a new member with the given role. */
async function adminKeyFor(role: 'member' | 'admin', email: string) {
  const person = await addMember(t.db.db, t.tenant.companyId, {
    name: 'Kim',
    surname: role,
    email,
    role,
    status: 'active',
  });
  const key = generateKey();
  const row = await t.db.db
    .insertInto('api_keys')
    .values({
      company_id: t.tenant.companyId,
      name: `admin key of a ${role}`,
      key_prefix: key.prefix,
      key_hash: key.hash,
      kind: 'integration',
      scopes: expandScopes(['admin']),
      person_id: person.person_id,
      revoked_at: null,
      expires_at: null,
      grace_expires_at: null,
      rotated_to_id: null,
      ip_allowlist: null,
      last_used_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { fullKey: key.fullKey, id: row.id, personId: person.person_id };
}

const keyCount = async () =>
  (
    await t.db.db
      .selectFrom('api_keys')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('company_id', '=', t.tenant.companyId)
      .executeTakeFirstOrThrow()
  ).n;

const keyState = () =>
  t.db.db
    .selectFrom('api_keys')
    .select(['id', 'revoked_at', 'grace_expires_at', 'rotated_to_id'])
    .where('company_id', '=', t.tenant.companyId)
    .orderBy('id')
    .execute();

test('an admin key acting for a plain member manages no keys: it cannot mint a person-less admin key that passes webhook management', async () => {
  const plain = await adminKeyFor('member', 'plain.admin.key@test.example');
  // The hole this closes: webhook management already refuses the key...
  const hooks = await t.request('GET', '/webhooks', { key: plain.fullKey });
  assert.equal(hooks.status, 403);
  // ...so it must not be able to mint a key that would not be refused.
  const before = await keyCount();
  const states = await keyState();
  const calls: Array<[string, string, unknown]> = [
    ['POST', '/auth/keys', { name: 'escape', scopes: ['admin'], person_id: null }],
    ['POST', '/auth/keys', { name: 'as the owner', scopes: ['admin'], person_id: t.tenant.ownerPersonId }],
    ['POST', '/auth/keys', { name: 'harmless', scopes: ['read'] }],
    ['GET', '/auth/keys', undefined],
    ['POST', `/auth/keys/${t.tenant.keyIds.admin}/rotate`, undefined],
    ['DELETE', `/auth/keys/${t.tenant.keyIds.admin}`, undefined],
  ];
  for (const [method, path, body] of calls) {
    const res = await t.request(method, path, { key: plain.fullKey, body });
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_role, 'owner or admin');
    assert.match(res.body.error.message, /Key management is open to company owners and administrators only/);
  }
  assert.equal(await keyCount(), before, 'no key minted');
  assert.deepEqual(await keyState(), states, 'nothing rotated or revoked');
  // Its other admin rights are untouched.
  assert.equal((await t.request('GET', '/auth/me', { key: plain.fullKey })).status, 200);
});

test('keys of owners and administrators, and person-less keys they mint, manage keys and webhooks', async () => {
  const administrator = await adminKeyFor('admin', 'real.admin@test.example');
  const minted = await t.request('POST', '/auth/keys', {
    key: administrator.fullKey,
    body: { name: 'person-less', scopes: ['admin'], person_id: null },
  });
  assert.equal(minted.status, 201, minted.text);
  assert.equal(minted.body.data.person_id, null);
  const fullKey = minted.body.data.full_key;
  assert.equal((await t.request('GET', '/auth/keys', { key: fullKey })).status, 200);
  assert.equal((await t.request('GET', '/webhooks', { key: fullKey })).status, 200);
  // A key an owner gives to a plain member carries admin scope but not management.
  const given = await t.request('POST', '/auth/keys', {
    body: { name: 'for the member', scopes: ['admin'], person_id: t.tenant.memberPersonId },
  });
  assert.equal(given.status, 201, given.text);
  const refused = await t.request('POST', '/auth/keys', {
    key: given.body.data.full_key,
    body: { name: 'escape', scopes: ['admin'], person_id: null },
  });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.error.code, 'FORBIDDEN');
});
