import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

// What an approval covers (dates, person, type) and who may give one through the API (never the entry's own person).

const t = await createTestApp();
const { memberPersonId: member, ownerPersonId: owner } = t.tenant;

async function createEntry(body: Record<string, unknown>, key: 'admin' | 'personal' = 'admin'): Promise<number> {
  const res = await t.request('POST', '/calendar', { key, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const storedEntry = (id: number) =>
  t.db.db
    .selectFrom('calendar_entries')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** Approval of vacation and flextime happens only in the web application; tests stand in for it by writing the row. */
const approve = (id: number) =>
  t.db.db.updateTable('calendar_entries').set({ status: 'approved' }).where('id', '=', id).execute();

test('approved vacation and flextime: dates, person and type changes answer 409 and write nothing; description may change', async () => {
  for (const type of ['vacation', 'flextime']) {
    const id = await createEntry(
      { type, person_id: member, date_from: '2026-07-06', date_until: '2026-07-07' },
      'personal',
    );
    await approve(id);
    const before = await storedEntry(id);
    const refusals: Array<[string, Record<string, unknown>]> = [
      ['date_until', { date_until: '2026-09-04' }],
      ['date_from', { date_from: '2026-07-01' }],
      ['person_id', { person_id: owner }],
      ['type', { type: 'sick_leave' }],
      ['dates with a description', { date_from: '2026-07-06', date_until: '2026-08-31', description: 'Longer' }],
    ];
    for (const key of ['personal', 'admin'] as const) {
      for (const [why, body] of refusals) {
        // The member's own key cannot move its entry to someone else (INVALID_PERSON would hide the rule).
        if (key === 'personal' && 'person_id' in body) continue;
        const res = await t.request('PATCH', `/calendar/${id}`, { key, body });
        assert.equal(res.status, 409, `${type} ${key} ${why}: ${res.text}`);
        assert.equal(res.body.error.code, 'CALENDAR_APPROVAL_UI_ONLY');
        assert.match(res.body.error.message, /only its description/);
        assert.ok(Array.isArray(res.body.error.details.fields), res.text);
      }
    }
    assert.deepEqual(await storedEntry(id), before, 'nothing written');

    // Sending the current values changes nothing, so it is no new approval.
    const same = await t.request('PATCH', `/calendar/${id}`, {
      key: 'personal',
      body: { date_from: '2026-07-06', date_until: '2026-07-07', person_id: member, type, description: 'Beach' },
    });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.data.status, 'approved');
    assert.equal(same.body.data.description, 'Beach');
    const stored = await storedEntry(id);
    assert.equal(stored.date_until, '2026-07-07');
    assert.equal(stored.status, 'approved');
  }
});

test("nobody approves their own entry: a member's key on their sick_leave/time_off is 403 FORBIDDEN, nothing written", async () => {
  for (const type of ['sick_leave', 'time_off']) {
    const id = await createEntry({ type, person_id: member, date_from: '2026-10-05' }, 'personal');
    const before = await storedEntry(id);
    const res = await t.request('PATCH', `/calendar/${id}`, { key: 'personal', body: { status: 'approved' } });
    assert.equal(res.status, 403, `${type}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.reason, 'SELF_APPROVAL');
    assert.equal(res.body.error.details.person_id, member);
    assert.deepEqual(await storedEntry(id), before);

    // Someone else's key approves it; then its own person cannot stretch it (that would approve the new dates).
    const approved = await t.request('PATCH', `/calendar/${id}`, { body: { status: 'approved' } });
    assert.equal(approved.status, 200, approved.text);
    const approvedRow = await storedEntry(id);
    const stretch = await t.request('PATCH', `/calendar/${id}`, {
      key: 'personal',
      body: { date_until: '2026-12-04' },
    });
    assert.equal(stretch.status, 403, stretch.text);
    assert.equal(stretch.body.error.details.reason, 'SELF_APPROVAL');
    assert.deepEqual(await storedEntry(id), approvedRow);

    // Its own person may still describe or withdraw it: neither approves anything.
    const described = await t.request('PATCH', `/calendar/${id}`, { key: 'personal', body: { description: 'Flu' } });
    assert.equal(described.status, 200, described.text);
    const withdrawn = await t.request('PATCH', `/calendar/${id}`, { key: 'personal', body: { status: 'in_review' } });
    assert.equal(withdrawn.status, 200, withdrawn.text);
    assert.equal((await storedEntry(id)).status, 'in_review');
  }
});

test("an owner's keys do not approve the owner's own entry either; moving an entry onto the approver is refused too", async () => {
  const own = await createEntry({ type: 'sick_leave', person_id: owner, date_from: '2026-11-02' });
  for (const key of ['admin', 'personalAdmin'] as const) {
    const res = await t.request('PATCH', `/calendar/${own}`, { key, body: { status: 'approved' } });
    assert.equal(res.status, 403, `${key}: ${res.text}`);
    assert.equal(res.body.error.details.reason, 'SELF_APPROVAL');
  }
  assert.equal((await storedEntry(own)).status, 'in_review');

  const members = await createEntry({ type: 'time_off', person_id: member, date_from: '2026-11-09' });
  const onto = await t.request('PATCH', `/calendar/${members}`, {
    body: { status: 'approved', person_id: owner },
  });
  assert.equal(onto.status, 403, onto.text);
  assert.equal((await storedEntry(members)).person_id, member);
  const approved = await t.request('PATCH', `/calendar/${members}`, { body: { status: 'approved' } });
  assert.equal(approved.status, 200, approved.text);
  assert.equal((await storedEntry(members)).status, 'approved');
});
