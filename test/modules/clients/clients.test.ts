import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();
// custom_fields values are checked against the company's definitions (issue 12).
await t.request('POST', '/custom-fields', {
  body: { name: 'tier', field_type: 'select', entity_type: 'client', options: ['gold'] },
});

test('create, read, list, update and delete a client', async () => {
  const created = await t.request('POST', '/clients', {
    body: { name: 'Acme', status: 'prospect', timing_required: true, fields: { tier: 'gold' } },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.data.name, 'Acme');
  assert.equal(created.body.data.timing_required, 1);
  assert.deepEqual(created.body.data.custom_fields, { tier: 'gold' });
  assert.deepEqual(created.body.data.contacts, []);
  assert.equal(created.body.data.contacts_truncated, false);
  assert.match(created.body.data.created_at, /Z$/);
  const id = created.body.data.id;
  const read = await t.request('GET', `/clients/${id}`, { key: 'read' });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('etag'), `"${read.body.data.updated_at}"`);
  const list = await t.request('GET', '/clients?status=prospect', { key: 'read' });
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.meta.total, 1);
  const patched = await t.request('PATCH', `/clients/${id}`, { key: 'write', body: { name: 'Acme Ltd' } });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.data.name, 'Acme Ltd');
  const deleted = await t.request('DELETE', `/clients/${id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal((await t.request('GET', `/clients/${id}`)).status, 404);
});
