import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { makeFixtures } from '../../support/fixtures.ts';

const t = await createTestApp();
const made = await makeFixtures(t, t.tenant, ['client_id', 'project_type_id']);

async function define(entity: string, name: string, field_type: string, options?: string[], status?: string) {
  const res = await t.request('POST', '/custom-fields', {
    body: { name, field_type, entity_type: entity, options, status },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as number;
}

for (const entity of ['client', 'contact', 'task', 'project', 'member']) {
  await define(entity, 'Size', 'number');
  await define(entity, 'Kind', 'select', ['a', 'b']);
  await define(entity, 'Labels', 'multiselect', ['x', 'y', 'z']);
  await define(entity, 'Since', 'date');
  await define(entity, 'Vip', 'boolean');
  await define(entity, 'Memo', 'text');
  await define(entity, 'Old', 'text', undefined, 'inactive');
}

const GOOD = { Size: 12.5, Kind: 'a', Labels: ['x', 'z'], Since: '2026-02-28', Vip: true, Memo: 'hi', Old: null };
const BAD: Array<[string, Record<string, unknown>]> = [
  ['Size', { Size: '12' }],
  ['Kind', { Kind: 'c' }],
  ['Labels', { Labels: ['x', 'q'] }],
  ['Labels', { Labels: ['x', 'x'] }],
  ['Labels', { Labels: 'x' }],
  ['Since', { Since: '2026-02-30' }],
  ['Since', { Since: '28.02.2026' }],
  ['Vip', { Vip: 1 }],
  ['Memo', { Memo: 5 }],
  ['Old', { Old: 'still here' }],
  ['Nope', { Nope: 1 }],
  ['size', { size: 1 }],
];

const endpoints: Record<string, { table: string; create: () => Record<string, unknown>; path: string }> = {
  client: { table: 'clients', path: '/clients', create: () => ({ name: 'CF client' }) },
  contact: { table: 'contacts', path: '/contacts', create: () => ({ name: 'CF contact', client_id: made.client_id }) },
  task: { table: 'tasks', path: '/tasks', create: () => ({ title: 'CF task' }) },
  project: {
    table: 'projects',
    path: '/projects',
    create: () => ({ name: 'CF', project_type_id: made.project_type_id }),
  },
  member: { table: 'members', path: '/members', create: () => ({ name: 'CF member' }) },
};

const stored = (table: string, id: number) =>
  t.db.db
    .selectFrom(table as 'clients')
    .select('custom_fields')
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

for (const [entity, { table, path, create }] of Object.entries(endpoints)) {
  test(`${entity}: custom_fields are checked against the active ${entity} definitions on create and update`, async () => {
    const created = await t.request('POST', path, { body: { ...create(), custom_fields: GOOD } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.data.custom_fields, GOOD);
    const id = created.body.data.id as number;
    assert.deepEqual((await stored(table, id)).custom_fields, GOOD);

    for (const [field, value] of BAD) {
      for (const key of ['custom_fields', 'fields']) {
        const res = await t.request('POST', path, { body: { ...create(), [key]: value } });
        assert.equal(res.status, 400, `${field}: ${res.text}`);
        assert.equal(res.body.error.code, 'VALIDATION_ERROR');
        assert.equal(res.body.error.details.errors[0].field, `${key}.${field}`, res.text);
      }
      const patch = await t.request('PATCH', `${path}/${id}`, { body: { custom_fields: value } });
      assert.equal(patch.status, 400, `${field}: ${patch.text}`);
      assert.equal(patch.body.error.details.errors[0].field, `custom_fields.${field}`);
    }
    assert.deepEqual((await stored(table, id)).custom_fields, GOOD);
    // Every bad key is named at once.
    const many = await t.request('PATCH', `${path}/${id}`, { body: { fields: { Size: 'x', Nope: 1 } } });
    assert.deepEqual(
      many.body.error.details.errors.map((e: { field: string }) => e.field),
      ['fields.Size', 'fields.Nope'],
    );
    const cleared = await t.request('PATCH', `${path}/${id}`, { body: { custom_fields: { Size: null } } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual((await stored(table, id)).custom_fields, { Size: null });
  });
}

test('a company without definitions accepts only an empty object or null; other entity types do not leak', async () => {
  const other = await t.newTenant();
  const empty = await t.request('POST', '/clients', { tenant: other, body: { name: 'E', custom_fields: {} } });
  assert.equal(empty.status, 201, empty.text);
  const refused = await t.request('POST', '/clients', {
    tenant: other,
    body: { name: 'E', custom_fields: { Size: 1 } },
  });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.details.errors[0].field, 'custom_fields.Size');
  // A member definition does not open a client key of the same name.
  await t.request('POST', '/custom-fields', {
    tenant: other,
    body: { name: 'Badge', field_type: 'text', entity_type: 'member' },
  });
  const leak = await t.request('POST', '/clients', {
    tenant: other,
    body: { name: 'E', custom_fields: { Badge: 'x' } },
  });
  assert.equal(leak.status, 400);
});

test('clients list filter custom_fields[<name>]=<value>: select, multiselect element, number, boolean; all must match', async () => {
  const make = async (custom_fields: Record<string, unknown>) => {
    const res = await t.request('POST', '/clients', { body: { name: 'Filter me', custom_fields } });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id as number;
  };
  const a = await make({ Kind: 'a', Labels: ['x', 'y'], Size: 3, Vip: true });
  const b = await make({ Kind: 'b', Labels: ['y'], Size: 4, Vip: false });
  const c = await make({ Kind: 'a' });
  const ids = async (query: string) => {
    const res = await t.request('GET', `/clients?name=Filter%20me&${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((r: { id: number }) => r.id);
  };
  assert.deepEqual(await ids('custom_fields[Kind]=a'), [a, c]);
  assert.deepEqual(await ids('custom_fields[Labels]=y'), [a, b]);
  assert.deepEqual(await ids('custom_fields[Labels]=x&custom_fields[Kind]=a'), [a]);
  assert.deepEqual(await ids('custom_fields[Size]=4'), [b]);
  assert.deepEqual(await ids('custom_fields[Vip]=true'), [a]);
  assert.deepEqual(await ids(`custom_fields[Kind]=${encodeURIComponent("a' or '1'='1")}`), []);
  assert.deepEqual(await ids('custom_fields[Nope]=a'), []);
  // Cursor pages keep the filter.
  const page = await t.request('GET', '/clients?name=Filter%20me&custom_fields[Kind]=a&limit=1&sort=id');
  assert.deepEqual(
    page.body.data.map((r: { id: number }) => r.id),
    [a],
  );
  const next = await t.request('GET', `/clients?cursor=${encodeURIComponent(page.body.meta.next_cursor)}`);
  assert.deepEqual(
    next.body.data.map((r: { id: number }) => r.id),
    [c],
  );
  // A malformed key is still an unknown filter, and values are bounded.
  const malformed = await t.request('GET', '/clients?custom_fields[]=a');
  assert.equal(malformed.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const long = await t.request('GET', `/clients?custom_fields[Kind]=${'x'.repeat(256)}`);
  assert.equal(long.status, 400, long.text);
});
