import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { as, newMember, sessionFor } from '../../support/sessions.ts';

const t = await createTestApp();
const owner = await sessionFor(t, { role: 'owner' });
const admin = await sessionFor(t, { role: 'admin' });

const memberIdOf = async (personId: number): Promise<number> =>
  (
    await t.db.db
      .selectFrom('members')
      .select('id')
      .where('company_id', '=', t.tenant.companyId)
      .where('person_id', '=', personId)
      .executeTakeFirstOrThrow()
  ).id;
const patch = (session: typeof owner, id: number, body: Record<string, unknown>) =>
  t.request('PATCH', `/members/${id}`, { ...as(session), body });

test("an owner's session changes a member's role and status; the write is audited as from the web", async () => {
  const id = await memberIdOf(await newMember(t, 'member'));
  const res = await patch(owner, id, { role: 'admin' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.role, 'admin');
  const off = await patch(owner, id, { status: 'inactive' });
  assert.equal(off.body.data.status, 'inactive');
  const on = await patch(admin, id, { status: 'active', role: 'member' });
  assert.equal(on.status, 200, on.text);
  assert.deepEqual([on.body.data.status, on.body.data.role], ['active', 'member']);
  const audit = await t.db.db
    .selectFrom('activities')
    .select('source')
    .where('company_id', '=', t.tenant.companyId)
    .where('entity', '=', 'member')
    .where('record_id', '=', id)
    .execute();
  assert.ok(audit.length >= 3 && audit.every((row) => row.source === 'web'), JSON.stringify(audit));
});

test('API keys stay refused with MANAGEMENT_UI_ONLY; a plain member session is FORBIDDEN; nothing is stored', async () => {
  const id = await memberIdOf(await newMember(t, 'member'));
  for (const key of ['admin', 'write', 'personalAdmin'] as const) {
    const res = await t.request('PATCH', `/members/${id}`, { key, body: { role: 'admin' } });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'MANAGEMENT_UI_ONLY');
  }
  const plain = await sessionFor(t, { role: 'member' });
  for (const target of [id, await memberIdOf(plain.personId)]) {
    const res = await patch(plain, target, { role: 'admin' });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  }
  assert.equal((await t.request('GET', `/members/${id}`)).body.data.role, 'member');
});

test('admins cannot make or unmake owners, nor change an owner’s status', async () => {
  const memberId = await memberIdOf(await newMember(t, 'member'));
  const ownerId = await memberIdOf(await newMember(t, 'owner'));
  for (const [id, body] of [
    [memberId, { role: 'owner' }],
    [ownerId, { role: 'admin' }],
    [ownerId, { status: 'inactive' }],
  ] as const) {
    const res = await patch(admin, id, body);
    assert.equal(res.status, 403, JSON.stringify(body));
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_role, 'owner');
  }
  const made = await patch(owner, memberId, { role: 'owner' });
  assert.equal(made.body.data.role, 'owner', 'an owner may');
});

test('the last active owner can never be demoted or deactivated (LAST_OWNER)', async () => {
  const other = await t.newTenant({ name: 'Solo Co' });
  const solo = await sessionFor(t, { tenant: other, personId: other.ownerPersonId });
  const soloId = (
    await t.db.db
      .selectFrom('members')
      .select('id')
      .where('company_id', '=', other.companyId)
      .where('person_id', '=', other.ownerPersonId)
      .executeTakeFirstOrThrow()
  ).id;
  for (const body of [{ role: 'admin' }, { status: 'inactive' }]) {
    const res = await t.request('PATCH', `/members/${soloId}`, { ...as(solo), tenant: other, body });
    assert.equal(res.status, 409, JSON.stringify(body));
    assert.equal(res.body.error.code, 'LAST_OWNER');
  }
  const second = await newMember(t, 'owner', other);
  const secondId = (
    await t.db.db.selectFrom('members').select('id').where('person_id', '=', second).executeTakeFirstOrThrow()
  ).id;
  assert.equal(secondId > 0, true);
  const ok = await t.request('PATCH', `/members/${soloId}`, { ...as(solo), tenant: other, body: { role: 'admin' } });
  assert.equal(ok.status, 200, ok.text);
});

test('status moves between active and inactive only (INVALID_STATUS_TRANSITION)', async () => {
  const id = await memberIdOf(await newMember(t, 'member'));
  for (const status of ['pending', 'limited']) {
    const res = await patch(owner, id, { status });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'INVALID_STATUS_TRANSITION');
  }
  const placeholder = await t.request('POST', '/members', { body: { name: 'Holder' } });
  const res = await patch(owner, placeholder.body.data.id, { status: 'active' });
  assert.equal(res.body.error.code, 'INVALID_STATUS_TRANSITION');
});

test('deactivating a member ends every session of its account; CSRF header required; other tenant 404', async () => {
  const target = await sessionFor(t, { role: 'member' });
  const id = await memberIdOf(target.personId);
  assert.equal((await t.request('GET', '/auth/session', as(target))).status, 200);
  const noCsrf = await t.request('PATCH', `/members/${id}`, {
    key: null,
    headers: { cookie: owner.cookie },
    body: { status: 'inactive' },
  });
  assert.equal(noCsrf.status, 403);
  assert.equal(noCsrf.body.error.code, 'CSRF_REJECTED');
  const res = await patch(owner, id, { status: 'inactive' });
  assert.equal(res.status, 200, res.text);
  assert.equal((await t.request('GET', '/auth/session', as(target))).status, 401, 'the session ended');
  const ended = await t.db.db
    .selectFrom('sessions')
    .select('ended_reason')
    .where('id', '=', target.id)
    .executeTakeFirst();
  assert.equal(ended?.ended_reason, 'deactivated');

  const other = await t.newTenant({ name: 'Far Co' });
  const stranger = await sessionFor(t, { tenant: other, role: 'owner' });
  const far = await t.request('PATCH', `/members/${id}`, { ...as(stranger), tenant: other, body: { role: 'admin' } });
  assert.equal(far.status, 404);
  assert.equal(far.body.error.code, 'NOT_FOUND');
});
