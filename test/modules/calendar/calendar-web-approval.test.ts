import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { as, sessionFor } from '../../support/sessions.ts';

const t = await createTestApp();
const owner = await sessionFor(t, { role: 'owner' });
const admin = await sessionFor(t, { role: 'admin' });
const member = await sessionFor(t, { role: 'member' });

const submit = async (type: string, session = member) => {
  const res = await t.request('POST', '/calendar', {
    ...as(session),
    body: { type, person_id: session.personId, date_from: '2026-07-01', date_until: '2026-07-03' },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.status, 'in_review');
  return res.body.data.id as number;
};
const decide = (session: typeof owner, id: number, status: string) =>
  t.request('PATCH', `/calendar/${id}`, { ...as(session), body: { status } });

test('a member submits vacation and flextime (in_review); an owner or admin approves or rejects them in the web', async () => {
  const vacation = await submit('vacation');
  const approved = await decide(admin, vacation, 'approved');
  assert.equal(approved.status, 200, approved.text);
  assert.equal(approved.body.data.status, 'approved');
  const flextime = await submit('flextime');
  const rejected = await decide(owner, flextime, 'rejected');
  assert.equal(rejected.status, 200, rejected.text);
  assert.equal(rejected.body.data.status, 'rejected');
  const listed = await t.request('GET', '/calendar?status=rejected', as(owner));
  assert.ok(listed.body.data.some((e: { id: number }) => e.id === flextime));
  for (const type of ['sick_leave', 'time_off']) assert.ok((await submit(type)) > 0);
});

test('API keys stay refused with CALENDAR_APPROVAL_UI_ONLY, approving or rejecting; nothing is stored', async () => {
  const id = await submit('vacation');
  for (const status of ['approved', 'rejected'])
    for (const key of ['admin', 'write'] as const) {
      const res = await t.request('PATCH', `/calendar/${id}`, { key, body: { status } });
      assert.equal(res.status, 409, `${key} ${status}`);
      assert.equal(res.body.error.code, 'CALENDAR_APPROVAL_UI_ONLY');
    }
  assert.equal((await t.request('GET', `/calendar/${id}`)).body.data.status, 'in_review');
});

test('a plain member cannot decide, not even their own; an admin not their own; an owner may decide their own', async () => {
  const id = await submit('vacation');
  const self = await decide(member, id, 'approved');
  assert.equal(self.status, 403);
  assert.equal(self.body.error.code, 'FORBIDDEN');
  const adminOwn = await submit('vacation', admin);
  const refused = await decide(admin, adminOwn, 'approved');
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.details.reason, 'SELF_APPROVAL');
  const ownerOwn = await submit('flextime', owner);
  assert.equal((await decide(owner, ownerOwn, 'approved')).status, 200);
});

test('CSRF header required; another tenant’s entry is 404', async () => {
  const id = await submit('vacation');
  const noCsrf = await t.request('PATCH', `/calendar/${id}`, {
    key: null,
    headers: { cookie: owner.cookie },
    body: { status: 'approved' },
  });
  assert.equal(noCsrf.status, 403);
  assert.equal(noCsrf.body.error.code, 'CSRF_REJECTED');
  const other = await t.newTenant({ name: 'Cal Co' });
  const stranger = await sessionFor(t, { tenant: other, role: 'owner' });
  const far = await t.request('PATCH', `/calendar/${id}`, {
    ...as(stranger),
    tenant: other,
    body: { status: 'approved' },
  });
  assert.equal(far.status, 404);
  assert.equal(far.body.error.code, 'NOT_FOUND');
});
