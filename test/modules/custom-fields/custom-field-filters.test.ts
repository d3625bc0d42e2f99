import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { makeFixtures } from '../../support/fixtures.ts';

// custom_fields[<name>]=<value> on the lists of contacts, tasks, projects and members, as clients have it.
const t = await createTestApp();
const other = await t.newTenant();
const made = await makeFixtures(t, t.tenant, ['client_id', 'project_type_id']);
const theirs = await makeFixtures(t, other, ['client_id', 'project_type_id']);

async function define(tenant: TenantFixture, entity: string, name: string, field_type: string, options?: string[]) {
  const res = await t.request('POST', '/custom-fields', {
    tenant,
    body: { name, field_type, entity_type: entity, options },
  });
  assert.equal(res.status, 201, res.text);
}

interface Resource {
  path: string;
  entity: string;
  /** A name shared by every record this test makes, so the list can be narrowed to them. */
  narrow: string;
  create: (tenant: TenantFixture) => Record<string, unknown>;
}

const RESOURCES: Resource[] = [
  {
    path: '/contacts',
    entity: 'contact',
    narrow: 'q=Filtered',
    create: (tenant) => ({
      name: 'Filtered',
      client_id: (tenant === other ? theirs : made).client_id,
    }),
  },
  { path: '/tasks', entity: 'task', narrow: 'q=Filtered', create: () => ({ title: 'Filtered' }) },
  {
    path: '/projects',
    entity: 'project',
    narrow: 'q=Filtered',
    create: (tenant) => ({ name: 'Filtered', project_type_id: (tenant === other ? theirs : made).project_type_id }),
  },
  { path: '/members', entity: 'member', narrow: 'q=Filtered', create: () => ({ name: 'Filtered' }) },
];

for (const tenant of [t.tenant, other]) {
  for (const { entity } of RESOURCES) {
    await define(tenant, entity, 'Kind', 'select', ['a', 'b']);
    await define(tenant, entity, 'Labels', 'multiselect', ['x', 'y']);
    await define(tenant, entity, 'Size', 'number');
    await define(tenant, entity, 'Vip', 'boolean');
  }
}

for (const resource of RESOURCES) {
  const { path, narrow } = resource;
  const make = async (custom_fields: Record<string, unknown>, tenant: TenantFixture = t.tenant) => {
    const res = await t.request('POST', path, { tenant, body: { ...resource.create(tenant), custom_fields } });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id as number;
  };
  const ids = async (query: string, tenant: TenantFixture = t.tenant) => {
    const res = await t.request('GET', `${path}?${narrow}&${query}`, { tenant });
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((r: { id: number }) => r.id);
  };

  test(`${path}: custom_fields[name]=value filters by select, multiselect element, number and boolean`, async () => {
    const a = await make({ Kind: 'a', Labels: ['x', 'y'], Size: 3, Vip: true });
    const b = await make({ Kind: 'b', Labels: ['y'], Size: 4, Vip: false });
    const c = await make({ Kind: 'a' });
    assert.deepEqual(await ids('custom_fields[Kind]=a'), [a, c]);
    assert.deepEqual(await ids('custom_fields[Labels]=y'), [a, b]);
    assert.deepEqual(await ids('custom_fields[Labels]=x&custom_fields[Kind]=a'), [a]);
    assert.deepEqual(await ids('custom_fields[Size]=4'), [b]);
    assert.deepEqual(await ids('custom_fields[Vip]=false'), [b]);
    assert.deepEqual(await ids(`custom_fields[Kind]=${encodeURIComponent("a' or '1'='1")}`), []);

    // Cursor pages carry the filter; a different filter with the cursor is refused.
    const page = await t.request('GET', `${path}?${narrow}&custom_fields[Kind]=a&limit=1&sort=id`);
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(
      page.body.data.map((r: { id: number }) => r.id),
      [a],
    );
    const cursor = encodeURIComponent(page.body.meta.next_cursor);
    const next = await t.request('GET', `${path}?cursor=${cursor}`);
    assert.deepEqual(
      next.body.data.map((r: { id: number }) => r.id),
      [c],
    );
    const changed = await t.request('GET', `${path}?cursor=${cursor}&custom_fields[Kind]=b`);
    assert.equal(changed.status, 400, changed.text);
    assert.equal(changed.body.error.code, 'INVALID_CURSOR');
  });

  test(`${path}: a field without a definition matches nothing (200, like clients); a bad key or value is refused`, async () => {
    await make({ Kind: 'b' });
    assert.deepEqual(await ids('custom_fields[Nope]=b'), []);
    const malformed = await t.request('GET', `${path}?custom_fields[]=a`);
    assert.equal(malformed.status, 400, malformed.text);
    assert.equal(malformed.body.error.code, 'UNKNOWN_FILTER_FIELD');
    const long = await t.request('GET', `${path}?custom_fields[Kind]=${'x'.repeat(256)}`);
    assert.equal(long.status, 400, long.text);
    assert.equal(long.body.error.code, 'VALIDATION_ERROR');
  });

  test(`${path}: the filter never reaches another company's records`, async () => {
    const mine = await make({ Kind: 'b', Size: 77 });
    const foreign = await make({ Kind: 'b', Size: 77 }, other);
    assert.deepEqual(await ids('custom_fields[Size]=77'), [mine]);
    assert.deepEqual(await ids('custom_fields[Size]=77', other), [foreign]);
  });
}
