import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';

// parent_id is checked with the caller's visibility: a client a restricted key cannot see answers like a missing one.

const t = await createTestApp();

async function createClient(body: Record<string, unknown>, key: 'admin' | 'personal' = 'admin'): Promise<number> {
  const res = await t.request('POST', '/clients', { key, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const clientCount = async () =>
  (
    await t.db.db
      .selectFrom('clients')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('company_id', '=', t.tenant.companyId)
      .executeTakeFirstOrThrow()
  ).n;

const storedParent = async (id: number) =>
  (
    await t.db.db
      .selectFrom('clients')
      .select('parent_id')
      .where('company_id', '=', t.tenant.companyId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).parent_id;

/** The error body with the probed id taken out, so two answers can be compared whole. */
const withoutId = (body: { error: { code: string; message: string; details: { value: number } } }, id: number) => ({
  code: body.error.code,
  message: body.error.message.replace(String(id), '<id>'),
  details: { ...body.error.details, value: '<id>' },
});

test('a restricted key gets the same 400 INVALID_CLIENT for a parent it cannot see as for a missing one, on create and update', async () => {
  // The owner's client, with no tie to the member: invisible to the member's personal key.
  const hidden = await createClient({ name: 'Hidden Holdings' });
  assert.equal((await t.request('GET', `/clients/${hidden}`, { key: 'personal' })).status, 404);
  const own = await createClient({ name: 'Member Own' }, 'personal');
  const missing = 2147483000;
  const before = await clientCount();

  const createHidden = await t.request('POST', '/clients', {
    key: 'personal',
    body: { name: 'Probe', parent_id: hidden },
  });
  const createMissing = await t.request('POST', '/clients', {
    key: 'personal',
    body: { name: 'Probe', parent_id: missing },
  });
  assert.equal(createHidden.status, 400, createHidden.text);
  assert.equal(createHidden.body.error.code, 'INVALID_CLIENT');
  assert.equal(createHidden.body.error.details.field, 'parent_id');
  assert.equal(createMissing.status, 400);
  assert.deepEqual(withoutId(createHidden.body, hidden), withoutId(createMissing.body, missing));
  assert.equal(await clientCount(), before, 'nothing created');

  const patchHidden = await t.request('PATCH', `/clients/${own}`, { key: 'personal', body: { parent_id: hidden } });
  const patchMissing = await t.request('PATCH', `/clients/${own}`, { key: 'personal', body: { parent_id: missing } });
  assert.equal(patchHidden.status, 400, patchHidden.text);
  assert.deepEqual(withoutId(patchHidden.body, hidden), withoutId(patchMissing.body, missing));
  assert.equal(await storedParent(own), null, 'nothing changed');

  // Keys that see the whole company still attach under it; the member may under a client they see.
  const child = await t.request('POST', '/clients', { body: { name: 'Child', parent_id: hidden } });
  assert.equal(child.status, 201, child.text);
  assert.equal(child.body.data.parent_id, hidden);
  const ownChild = await t.request('POST', '/clients', {
    key: 'personal',
    body: { name: 'Own child', parent_id: own },
  });
  assert.equal(ownChild.status, 201, ownChild.text);
  assert.equal(ownChild.body.data.parent_id, own);
});
