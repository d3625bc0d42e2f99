import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();

test('/auth/me for an integration key: company, key, and the person it is attributed to', async () => {
  const other = await t.newTenant({ name: 'Zone Co', timezone: 'Europe/Tallinn' });
  const response = await t.request('GET', '/auth/me', { tenant: other, key: 'read' });
  assert.equal(response.status, 200, response.text);
  const { company, key, person } = response.body.data;
  assert.deepEqual(company, { id: other.companyId, name: 'Zone Co', timezone: 'Europe/Tallinn' });
  assert.equal(key.id, other.keyIds.read);
  assert.equal(key.kind, 'integration');
  assert.deepEqual(key.scopes, ['read']);
  assert.ok(other.keys.read.startsWith(key.key_prefix));
  assert.ok(!response.text.includes(other.keys.read), 'the secret is not echoed');
  assert.equal(person.person_id, other.ownerPersonId);
  assert.equal(typeof person.member_id, 'number');
  assert.equal(person.name, 'Olive');
  assert.equal(person.surname, 'Owner');
  assert.equal(person.email, 'olive@test.example');
  assert.equal(person.role, 'owner');
});

test('/auth/me for an integration key without a person answers person null', async () => {
  const created = await t.request('POST', '/auth/keys', {
    body: { name: 'Robot', person_id: null, scopes: ['write'] },
  });
  assert.equal(created.status, 201, created.text);
  const response = await t.request('GET', '/auth/me', { key: created.body.data.full_key });
  assert.equal(response.status, 200);
  assert.equal(response.body.data.person, null);
  assert.deepEqual(response.body.data.key, {
    id: created.body.data.id,
    name: 'Robot',
    kind: 'integration',
    scopes: ['read', 'write'],
    key_prefix: created.body.data.key_prefix,
  });
});

test('/auth/me for a personal key: the member it acts as', async () => {
  const response = await t.request('GET', '/auth/me', { key: 'personal' });
  assert.equal(response.status, 200, response.text);
  const { key, person } = response.body.data;
  assert.equal(key.id, t.tenant.keyIds.personal);
  assert.equal(key.kind, 'personal');
  assert.deepEqual(key.scopes, ['read', 'write']);
  assert.deepEqual(
    { ...person, member_id: typeof person.member_id },
    {
      person_id: t.tenant.memberPersonId,
      member_id: 'number',
      name: 'Mark',
      surname: 'Member',
      email: 'mark@test.example',
      role: 'member',
    },
  );
});

test('/auth/me needs authentication like every other route', async () => {
  const missing = await t.request('GET', '/auth/me', { key: null });
  assert.equal(missing.status, 401);
  assert.equal(missing.body.error.code, 'MISSING_AUTH');
  const noCompany = await t.request('GET', '/auth/me', { company: null });
  assert.equal(noCompany.status, 400);
  assert.equal(noCompany.body.error.code, 'MISSING_COMPANY');
});
