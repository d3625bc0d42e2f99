import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

async function createField(body: Record<string, unknown>, tenant?: TenantFixture): Promise<Record<string, any>> {
  const res = await t.request('POST', '/custom-fields', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}
const storedField = (id: number) =>
  t.db.db
    .selectFrom('custom_fields')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirst();
const insertSystemField = async (name: string) =>
  (
    await t.db.db
      .insertInto('custom_fields')
      .values({ company_id: t.tenant.companyId, name, field_type: 'text', entity_type: 'client', is_system: true })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

test('create, read, list, update and delete a custom field (preview; reads on the read tier)', async () => {
  const created = await t.request('POST', '/custom-fields', {
    key: 'write',
    body: { name: 'Tier', field_type: 'select', entity_type: 'client', options: ['gold', 'silver'] },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const field = created.body.data;
  assert.deepEqual(Object.keys(field).sort(), [
    'created_at',
    'entity_type',
    'field_type',
    'id',
    'is_system',
    'name',
    'options',
    'status',
    'updated_at',
  ]);
  assert.equal(field.status, 'active');
  assert.equal(field.is_system, false);
  assert.deepEqual(field.options, ['gold', 'silver']);
  const row = await storedField(field.id);
  assert.deepEqual(row?.options, ['gold', 'silver']);
  assert.equal(row?.entity_type, 'client');

  const read = await t.request('GET', `/custom-fields/${field.id}`, { key: 'read' });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.headers.get('x-api-preview'), 'true');
  assert.deepEqual(read.body.data, field);
  assert.equal((await t.request('POST', '/custom-fields', { key: 'read', body: { name: 'x' } })).status, 403);

  const patched = await t.request('PATCH', `/custom-fields/${field.id}`, {
    body: { status: 'inactive', options: ['gold', 'silver', 'bronze'], name: 'Tier', entity_type: 'client' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.status, 'inactive');
  assert.deepEqual(patched.body.data.options, ['gold', 'silver', 'bronze']);
  assert.ok(patched.body.data.updated_at > field.updated_at);
  assert.equal((await storedField(field.id))?.status, 'inactive');

  const deleted = await t.request('DELETE', `/custom-fields/${field.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.notEqual((await storedField(field.id))?.deleted_at, null);
  assert.equal((await t.request('GET', `/custom-fields/${field.id}`)).status, 404);
  assert.equal((await t.request('PATCH', `/custom-fields/${field.id}`, { body: { status: 'active' } })).status, 404);
  assert.equal((await t.request('DELETE', `/custom-fields/${field.id}`)).status, 404);
  // A deleted definition frees its name.
  await createField({ name: 'Tier', field_type: 'text', entity_type: 'client' });
});

test('list filters entity_type, status, is_system and q', async () => {
  const other = await t.newTenant();
  const a = await createField({ name: 'Budget code', field_type: 'text', entity_type: 'project' }, other);
  const b = await createField(
    { name: 'Shirt size', field_type: 'select', entity_type: 'member', options: ['S', 'M'], status: 'inactive' },
    other,
  );
  const sys = await t.db.db
    .insertInto('custom_fields')
    .values({
      company_id: other.companyId,
      name: 'Legacy id',
      field_type: 'number',
      entity_type: 'contact',
      is_system: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids = async (query: string) => {
    const res = await t.request('GET', `/custom-fields?${query}`, { tenant: other, key: 'read' });
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((f: { id: number }) => f.id);
  };
  assert.deepEqual(await ids(''), [a.id, b.id, sys.id]);
  assert.deepEqual(await ids('entity_type=project,member'), [a.id, b.id]);
  assert.deepEqual(await ids('status=inactive'), [b.id]);
  assert.deepEqual(await ids('is_system=true'), [sys.id]);
  assert.deepEqual(await ids('is_system=0'), [a.id, b.id]);
  assert.deepEqual(await ids('q=SIZE'), [b.id]);
  assert.deepEqual(await ids('sort=-name'), [b.id, sys.id, a.id]);
  // Another company's definitions are invisible.
  assert.equal((await t.request('GET', `/custom-fields/${a.id}`)).status, 404);
  for (const query of ['entity_type=invoice', 'status=gone', 'is_system=maybe']) {
    const res = await t.request('GET', `/custom-fields?${query}`, { tenant: other });
    assert.ok(res.status === 400 || res.status === 422, `${query}: ${res.text}`);
  }
  assert.equal((await t.request('GET', '/custom-fields?colour=red')).body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test('a duplicate name per entity type (any letter case) is 409 CUSTOM_FIELD_EXISTS; other entity types are free', async () => {
  await createField({ name: 'Region', field_type: 'text', entity_type: 'contact' });
  for (const name of ['Region', 'REGION']) {
    const res = await t.request('POST', '/custom-fields', {
      body: { name, field_type: 'number', entity_type: 'contact' },
    });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.error.code, 'CUSTOM_FIELD_EXISTS');
    assert.equal(res.body.error.details.field, 'name');
  }
  await createField({ name: 'Region', field_type: 'text', entity_type: 'task' });
});

test('name, field_type and entity_type are immutable: 403 CUSTOM_FIELD_READ_ONLY', async () => {
  const field = await createField({ name: 'Due reason', field_type: 'text', entity_type: 'task' });
  for (const change of [{ name: 'Reason' }, { field_type: 'number' }, { entity_type: 'project' }]) {
    const res = await t.request('PATCH', `/custom-fields/${field.id}`, { body: { ...change, status: 'inactive' } });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error.code, 'CUSTOM_FIELD_READ_ONLY');
    assert.equal(res.body.error.details.field, Object.keys(change)[0]);
  }
  const row = await storedField(field.id);
  assert.equal(row?.name, 'Due reason');
  assert.equal(row?.status, 'active');
});

test('system fields are read-only (403 CUSTOM_FIELD_READ_ONLY) and not deletable (403 CUSTOM_FIELD_NOT_DELETABLE)', async () => {
  const id = await insertSystemField('Account number');
  const patched = await t.request('PATCH', `/custom-fields/${id}`, { body: { status: 'inactive' } });
  assert.equal(patched.status, 403, patched.text);
  assert.equal(patched.body.error.code, 'CUSTOM_FIELD_READ_ONLY');
  const deleted = await t.request('DELETE', `/custom-fields/${id}`);
  assert.equal(deleted.status, 403, deleted.text);
  assert.equal(deleted.body.error.code, 'CUSTOM_FIELD_NOT_DELETABLE');
  const row = await storedField(id);
  assert.equal(row?.status, 'active');
  assert.equal(row?.deleted_at, null);
  const created = await t.request('POST', '/custom-fields', {
    body: { name: 'Sneaky', field_type: 'text', entity_type: 'client', is_system: true },
  });
  assert.equal(created.status, 400);
  assert.equal(created.body.error.code, 'VALIDATION_ERROR');
});

test('options: required for choice types, refused for others; removing one in use is 409 CUSTOM_FIELD_OPTION_IN_USE', async () => {
  for (const body of [
    { name: 'Colour', field_type: 'select', entity_type: 'client' },
    { name: 'Colour', field_type: 'multiselect', entity_type: 'client', options: [] },
    { name: 'Colour', field_type: 'text', entity_type: 'client', options: ['a'] },
  ]) {
    const res = await t.request('POST', '/custom-fields', { body });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.errors[0].field, 'options');
  }
  const single = await createField({
    name: 'Segment',
    field_type: 'select',
    entity_type: 'client',
    options: ['a', 'b', 'c'],
  });
  const multi = await createField({
    name: 'Tags',
    field_type: 'multiselect',
    entity_type: 'client',
    options: ['x', 'y', 'z'],
  });
  const client = await t.request('POST', '/clients', {
    body: { name: 'Option user', custom_fields: { Segment: 'a', Tags: ['y'] } },
  });
  assert.equal(client.status, 201, client.text);

  const dropA = await t.request('PATCH', `/custom-fields/${single.id}`, { body: { options: ['b'] } });
  assert.equal(dropA.status, 409, dropA.text);
  assert.equal(dropA.body.error.code, 'CUSTOM_FIELD_OPTION_IN_USE');
  assert.deepEqual(dropA.body.error.details.options, ['a']);
  const dropY = await t.request('PATCH', `/custom-fields/${multi.id}`, { body: { options: ['x'] } });
  assert.equal(dropY.status, 409, dropY.text);
  assert.deepEqual(dropY.body.error.details.options, ['y']);
  assert.deepEqual((await storedField(multi.id))?.options, ['x', 'y', 'z']);

  // Unused options go; so do used ones once the record is deleted.
  const dropC = await t.request('PATCH', `/custom-fields/${single.id}`, { body: { options: ['a', 'b'] } });
  assert.equal(dropC.status, 200, dropC.text);
  assert.deepEqual(dropC.body.data.options, ['a', 'b']);
  assert.equal((await t.request('DELETE', `/clients/${client.body.data.id}`)).status, 204);
  const later = await t.request('PATCH', `/custom-fields/${single.id}`, { body: { options: ['b'] } });
  assert.equal(later.status, 200, later.text);
  const empty = await t.request('PATCH', `/custom-fields/${single.id}`, { body: { options: [] } });
  assert.equal(empty.status, 400, empty.text);
});

test('bad bodies answer 400 VALIDATION_ERROR and store nothing', async () => {
  const ok = { name: 'Valid', field_type: 'text', entity_type: 'client' };
  const bad: Array<[string, unknown]> = [
    ['missing name', { field_type: 'text', entity_type: 'client' }],
    ['missing field_type', { name: 'A', entity_type: 'client' }],
    ['missing entity_type', { name: 'A', field_type: 'text' }],
    ['empty name', { ...ok, name: '' }],
    ['long name', { ...ok, name: 'x'.repeat(101) }],
    ['bracket in name', { ...ok, name: 'a[b]' }],
    ['NUL in name', { ...ok, name: 'a\u0000b' }],
    ['unknown field_type', { ...ok, field_type: 'blob' }],
    ['unknown entity_type', { ...ok, entity_type: 'invoice' }],
    ['unknown status', { ...ok, status: 'archived' }],
    ['duplicate options', { ...ok, field_type: 'select', options: ['a', 'a'] }],
    ['too many options', { ...ok, field_type: 'select', options: Array.from({ length: 201 }, (_, i) => `o${i}`) }],
    ['option not a string', { ...ok, field_type: 'select', options: [1] }],
    ['unknown field', { ...ok, company_id: 'x' }],
    ['name of the wrong type', { ...ok, name: 42 }],
  ];
  const count = async () =>
    (
      await t.db.db
        .selectFrom('custom_fields')
        .select(({ fn }) => fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const before = await count();
  for (const [why, body] of bad) {
    const res = await t.request('POST', '/custom-fields', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
  }
  assert.equal(await count(), before);
  assert.equal((await t.request('GET', '/custom-fields/99999999999')).status, 400);
});

test('POST /custom-fields is idempotent; a plain member personal key cannot write definitions', async () => {
  const body = { name: `Idem ${Date.now()}`, field_type: 'boolean', entity_type: 'member' };
  const headers = { 'idempotency-key': `cf-${Date.now()}` };
  const first = await t.request('POST', '/custom-fields', { body, headers });
  const again = await t.request('POST', '/custom-fields', { body, headers });
  assert.equal(first.status, 201, first.text);
  assert.equal(again.body.data.id, first.body.data.id);
  const personal = await t.request('POST', '/custom-fields', { key: 'personal', body: { ...body, name: 'Mine' } });
  assert.equal(personal.status, 403, personal.text);
});
