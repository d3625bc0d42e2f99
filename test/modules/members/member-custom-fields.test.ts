import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

// Members' bodies take custom_fields (alias fields), checked against the company's `member` definitions.
const t = await createTestApp();

const define = async (name: string, field_type: string, entity_type = 'member', options?: string[]) => {
  const res = await t.request('POST', '/custom-fields', { body: { name, field_type, entity_type, options } });
  assert.equal(res.status, 201, res.text);
};
await define('Badge', 'text');
await define('Shift', 'select', 'member', ['day', 'night']);
// A client field of the same kind does not open the key on members.
await define('Region', 'text', 'client');

const stored = async (id: number) =>
  (
    await t.db.db
      .selectFrom('members')
      .select(['custom_fields', 'updated_at'])
      .where('company_id', '=', t.tenant.companyId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).custom_fields;

test('create and update store checked member custom fields; the alias fields is accepted; null clears', async () => {
  const created = await t.request('POST', '/members', {
    key: 'write',
    body: { name: 'Custom', custom_fields: { Badge: 'B-7', Shift: 'day' } },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.body.data.custom_fields, { Badge: 'B-7', Shift: 'day' });
  const id = created.body.data.id as number;
  assert.deepEqual(await stored(id), { Badge: 'B-7', Shift: 'day' });

  const read = await t.request('GET', `/members/${id}`);
  assert.deepEqual(read.body.data.custom_fields, { Badge: 'B-7', Shift: 'day' });

  const patched = await t.request('PATCH', `/members/${id}`, { body: { fields: { Shift: 'night' } } });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual(patched.body.data.custom_fields, { Shift: 'night' });
  assert.ok(read.headers.get('etag'));
  assert.notEqual(patched.headers.get('etag'), read.headers.get('etag'));
  assert.deepEqual(await stored(id), { Shift: 'night' });

  const cleared = await t.request('PATCH', `/members/${id}`, { body: { custom_fields: null } });
  assert.equal(cleared.status, 200, cleared.text);
  assert.equal(await stored(id), null);
});

test("bad values, unknown keys, other entities' keys and both aliases at once are 400, nothing stored", async () => {
  const created = await t.request('POST', '/members', { key: 'write', body: { name: 'Strict' } });
  const id = created.body.data.id as number;
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ custom_fields: { Shift: 'evening' } }, 'custom_fields.Shift'],
    [{ custom_fields: { Badge: 7 } }, 'custom_fields.Badge'],
    [{ fields: { Nope: 'x' } }, 'fields.Nope'],
    [{ custom_fields: { Region: 'north' } }, 'custom_fields.Region'],
  ];
  for (const [body, field] of cases) {
    const post = await t.request('POST', '/members', { key: 'write', body: { name: 'Refused', ...body } });
    assert.equal(post.status, 400, post.text);
    assert.equal(post.body.error.code, 'VALIDATION_ERROR');
    assert.equal(post.body.error.details.errors[0].field, field);
    const patch = await t.request('PATCH', `/members/${id}`, { body });
    assert.equal(patch.status, 400, patch.text);
    assert.equal(patch.body.error.details.errors[0].field, field);
  }
  const both = await t.request('PATCH', `/members/${id}`, {
    body: { custom_fields: { Badge: 'a' }, fields: { Badge: 'b' } },
  });
  assert.equal(both.status, 400, both.text);
  assert.equal(both.body.error.details.reason, 'DUPLICATE_ALIAS');
  const wrongType = await t.request('POST', '/members', { key: 'write', body: { name: 'X', custom_fields: 'text' } });
  assert.equal(wrongType.status, 400, wrongType.text);
  assert.equal(await stored(id), null);
  const refusedRows = await t.db.db
    .selectFrom('people')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Refused')
    .execute();
  assert.deepEqual(refusedRows, []);
});

test("a plain member's personal key may set its own custom fields, not another member's", async () => {
  const self = await t.db.db
    .selectFrom('members')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', t.tenant.memberPersonId)
    .executeTakeFirstOrThrow();
  const own = await t.request('PATCH', `/members/${self.id}`, {
    key: 'personal',
    body: { custom_fields: { Badge: 'mine' } },
  });
  assert.equal(own.status, 200, own.text);
  assert.deepEqual(await stored(self.id), { Badge: 'mine' });
  const owner = await t.db.db
    .selectFrom('members')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', t.tenant.ownerPersonId)
    .executeTakeFirstOrThrow();
  const others = await t.request('PATCH', `/members/${owner.id}`, {
    key: 'personal',
    body: { custom_fields: { Badge: 'theirs' } },
  });
  assert.equal(others.status, 403, others.text);
  assert.notDeepEqual(await stored(owner.id), { Badge: 'theirs' });
});
