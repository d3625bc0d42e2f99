// Reads that answer JSON built in SQL (src/platform/json-records.ts) must read exactly as the route's schema
// would serialize them: the same fields, in the schema's order, of the schema's types, and nothing more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fastJson from 'fast-json-stringify';
import { Value } from 'typebox/value';
import type { TSchema } from 'typebox';
import { createTestApp } from '../helpers.ts';
import { Client, CONTACTS_INLINE_CAP } from '../../src/modules/clients/clients.schemas.ts';
import { forSerialization } from '../../src/platform/validation.ts';

const t = await createTestApp();

/** The body's record as the schema's serializer writes it, against the record as it was sent. */
function assertSerializedForm(schema: TSchema, record: unknown, what: string): void {
  assert.ok(
    Value.Check(schema, record),
    `${what} is not a valid ${(schema as { title?: string }).title}: ${JSON.stringify(record)}`,
  );
  const serialize = fastJson(forSerialization(schema) as never) as (value: unknown) => string;
  assert.equal(JSON.stringify(record), serialize(record), `${what}: fields, order or types differ from the schema`);
}

async function fullClient(): Promise<number> {
  await t.request('POST', '/custom-fields', {
    body: { name: 'tier', field_type: 'select', entity_type: 'client', options: ['gold'] },
  });
  const group = await t.request('POST', '/client-groups', { body: { name: 'Key accounts' } });
  const parent = await t.request('POST', '/clients', { body: { name: 'Parent Group' } });
  const client = await t.request('POST', '/clients', {
    body: {
      name: 'Acme "Ltd" \\ ünï',
      status: 'prospect',
      locale_code: 'en',
      reg_code: '123',
      vat_code: 'EE123',
      address_street: '1 Main\nStreet',
      address_city: 'Tallinn',
      address_state: 'Harju',
      address_zip: '10111',
      address_country_code: 'EE',
      default_person_id: t.tenant.ownerPersonId,
      ext_client_id: 'x-1',
      client_initials: 'AL',
      parent_id: parent.body.data.id,
      timing_required: 1,
      topic_required: true,
      custom_fields: { tier: 'gold' },
      groups: [group.body.data.id],
    },
  });
  assert.equal(client.status, 201, client.text);
  const id = client.body.data.id as number;
  for (let i = 0; i <= CONTACTS_INLINE_CAP; i++) {
    const contact = await t.request('POST', '/contacts', {
      body: {
        client_id: id,
        name: `Contact ${i}`,
        surname: i % 2 ? 'Odd' : null,
        email: `c${i}@example.com`,
        birthday: '1990-02-03',
        is_primary: i === 7 ? 1 : 0,
      },
    });
    assert.equal(contact.status, 201, contact.text);
  }
  return id;
}

test('a client read and a client page are the schema serializer form of the record, truncated contacts included', async () => {
  const id = await fullClient();
  const read = await t.request('GET', `/clients/${id}`);
  assert.equal(read.status, 200, read.text);
  assert.equal(read.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(read.headers.get('etag'), `"${read.body.data.updated_at}"`);
  const record = read.body.data;
  assertSerializedForm(Client, record, 'GET /clients/{id}');
  assert.equal(record.contacts.length, CONTACTS_INLINE_CAP);
  assert.equal(record.contacts_truncated, true);
  assert.equal(record.contacts[0].name, 'Contact 7', 'the primary contact comes first');
  assert.deepEqual(
    record.contacts.slice(1, 4).map((c: { name: string }) => c.name),
    ['Contact 0', 'Contact 1', 'Contact 2'],
  );
  assert.equal(record.name, 'Acme "Ltd" \\ ünï');
  assert.equal(record.address_street, '1 Main\nStreet');
  assert.match(record.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(record.contacts[0].birthday, '1990-02-03');

  // A write answers the same record through the serializer: the read's text path may not drift from it.
  const patched = await t.request('PATCH', `/clients/${id}`, { body: { vat_code: 'EE124' } });
  assert.equal(patched.status, 200, patched.text);
  const reread = await t.request('GET', `/clients/${id}`);
  assert.deepEqual(reread.body, patched.body);

  const page = await t.request('GET', '/clients?sort=-created_at&limit=1');
  assert.equal(page.status, 200, page.text);
  assert.equal(page.body.data[0].id, id);
  assert.deepEqual(page.body.data[0], reread.body.data);
  assertSerializedForm(Client, page.body.data[0], 'GET /clients');
  assert.deepEqual(Object.keys(page.body.meta), ['total', 'limit', 'offset', 'has_more', 'next_cursor']);
  const next = await t.request('GET', `/clients?cursor=${encodeURIComponent(page.body.meta.next_cursor)}`);
  assert.equal(next.status, 200, next.text);
  assert.equal(next.body.data[0].name, 'Parent Group', 'the cursor carries the created_at sort value on');
});

test('a client without contacts, groups or optional fields reads as empty lists and nulls', async () => {
  const created = await t.request('POST', '/clients', { body: { name: 'Bare' } });
  const read = await t.request('GET', `/clients/${created.body.data.id}`);
  assert.equal(read.status, 200);
  assertSerializedForm(Client, read.body.data, 'a bare client');
  assert.deepEqual(read.body.data.contacts, []);
  assert.deepEqual(read.body.data.groups, []);
  assert.equal(read.body.data.contacts_truncated, false);
  assert.equal(read.body.data.custom_fields, null);
  assert.deepEqual(read.body, created.body);
});
