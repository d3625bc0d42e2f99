import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { addMember } from '../../../src/modules/companies/companies.service.ts';
import { localToday } from '../../../src/platform/dates.ts';

const t = await createTestApp();
const owner = t.tenant.ownerPersonId;
const member = t.tenant.memberPersonId;
const today = localToday('UTC');
const DAY = 86_400_000;
const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const third = (
  await addMember(t.db.db, t.tenant.companyId, {
    name: 'Tess',
    surname: 'Third',
    email: 'tess@test.example',
    role: 'member',
    status: 'active',
  })
).person_id;

async function createDelegation(body: Record<string, unknown>) {
  const res = await t.request('POST', '/delegations', { body });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test('create, read, list, update and delete a delegation', async () => {
  const created = await t.request('POST', '/delegations', {
    key: 'write',
    body: {
      delegator_id: owner,
      delegate_id: third,
      date_from: today,
      date_until: shiftDay(today, 6),
      note: 'Holiday',
    },
  });
  assert.equal(created.status, 201, created.text);
  const d = created.body.data;
  assert.deepEqual(
    { ...d, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      delegator_id: owner,
      delegate_id: third,
      date_from: today,
      date_until: shiftDay(today, 6),
      scope: 'tasks',
      note: 'Holiday',
      active: true,
      created_at: '',
      updated_at: '',
    },
  );
  const row = await t.db.db.selectFrom('delegations').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
  assert.equal(row.company_id, t.tenant.companyId);
  assert.equal(row.date_until, shiftDay(today, 6));

  assert.deepEqual((await t.request('GET', `/delegations/${d.id}`, { key: 'write' })).body.data, d);
  // The spec's row reads "GET/POST/PATCH/DELETE, write": a read key does not reach it (decision 0050).
  const readKey = await t.request('GET', `/delegations/${d.id}`, { key: 'read' });
  assert.deepEqual(
    [readKey.status, readKey.body.error.code, readKey.body.error.details],
    [403, 'FORBIDDEN', { required_scope: 'write' }],
  );
  const listed = await t.request('GET', `/delegations?delegator_id=${owner}&active=true`);
  assert.deepEqual(
    listed.body.data.map((x: { id: number }) => x.id),
    [d.id],
  );
  assert.equal((await t.request('GET', `/delegations?delegate_id=${third}&active=false`)).body.data.length, 0);

  const patched = await t.request('PATCH', `/delegations/${d.id}`, {
    body: { date_from: shiftDay(today, 1), note: null },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.active, false, 'starts tomorrow');
  assert.equal(patched.body.data.note, null);

  assert.equal((await t.request('DELETE', `/delegations/${d.id}`)).status, 204);
  assert.equal((await t.request('GET', `/delegations/${d.id}`)).status, 404);
  assert.equal((await t.request('PATCH', `/delegations/${d.id}`, { body: { note: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/delegations/${d.id}`)).status, 404);
  const other = await t.newTenant();
  const mine = await createDelegation({ delegator_id: owner, delegate_id: third, date_from: today, date_until: today });
  assert.equal((await t.request('GET', `/delegations/${mine.id}`, { tenant: other })).status, 404);
  await t.request('DELETE', `/delegations/${mine.id}`);
});

test('bad input answers 400: types, unknown fields, people, the same person, the date range', async () => {
  const other = await t.newTenant();
  const base = { delegator_id: owner, delegate_id: member, date_from: today, date_until: today };
  const cases: Array<[Record<string, unknown>, string, string?]> = [
    [{ ...base, date_from: '2026-13-40' }, 'VALIDATION_ERROR'],
    [{ ...base, date_until: 'tomorrow' }, 'VALIDATION_ERROR'],
    [{ ...base, scope: 'approvals' }, 'VALIDATION_ERROR'],
    [{ ...base, extra: true }, 'VALIDATION_ERROR'],
    [{ ...base, note: 'a\u0000b' }, 'VALIDATION_ERROR'],
    [{ ...base, note: 'x'.repeat(1001) }, 'VALIDATION_ERROR'],
    [{ ...base, delegate_id: 1e12 }, 'VALIDATION_ERROR'],
    [{ delegator_id: owner, date_from: today, date_until: today }, 'VALIDATION_ERROR'],
    [{ ...base, delegate_id: owner }, 'VALIDATION_ERROR', 'SAME_PERSON'],
    [{ ...base, date_until: shiftDay(today, -1) }, 'VALIDATION_ERROR', 'INVALID_DATE_RANGE'],
    [{ ...base, delegate_id: other.memberPersonId }, 'INVALID_PERSON'],
    [{ ...base, delegator_id: 987654 }, 'INVALID_PERSON'],
  ];
  for (const [body, code, reason] of cases) {
    const res = await t.request('POST', '/delegations', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 100)}: ${res.text}`);
    assert.equal(res.body.error.code, code, res.text);
    if (reason) assert.equal(res.body.error.details.reason, reason, res.text);
  }
  const d = await createDelegation({ ...base, date_until: shiftDay(today, 3) });
  // A PATCH is checked against the stored row: moving only the start past the end is refused.
  const patch = await t.request('PATCH', `/delegations/${d.id}`, { body: { date_from: shiftDay(today, 4) } });
  assert.equal(patch.status, 400);
  assert.equal(patch.body.error.details.reason, 'INVALID_DATE_RANGE');
  const same = await t.request('PATCH', `/delegations/${d.id}`, { body: { delegate_id: owner } });
  assert.equal(same.body.error.details.reason, 'SAME_PERSON');
  assert.equal((await t.request('GET', `/delegations/${d.id}`)).body.data.date_from, today, 'unchanged');
  await t.request('DELETE', `/delegations/${d.id}`);
});

test("a plain member's key lists the delegations it is party to and cannot write them", async () => {
  const theirs = await createDelegation({
    delegator_id: owner,
    delegate_id: member,
    date_from: today,
    date_until: today,
  });
  const notTheirs = await createDelegation({
    delegator_id: owner,
    delegate_id: third,
    date_from: today,
    date_until: today,
  });
  const listed = await t.request('GET', '/delegations', { key: 'personal' });
  assert.equal(listed.status, 200);
  assert.deepEqual(
    listed.body.data.map((x: { id: number }) => x.id),
    [theirs.id],
  );
  assert.equal((await t.request('GET', `/delegations/${notTheirs.id}`, { key: 'personal' })).status, 404);
  const body = { delegator_id: member, delegate_id: third, date_from: today, date_until: today };
  const refused = await t.request('POST', '/delegations', { key: 'personal', body });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'FORBIDDEN');
  assert.equal((await t.request('DELETE', `/delegations/${theirs.id}`, { key: 'personal' })).status, 403);
  assert.equal((await t.request('POST', '/delegations', { key: 'read', body })).status, 403);
  await t.request('DELETE', `/delegations/${theirs.id}`);
  await t.request('DELETE', `/delegations/${notTheirs.id}`);
});

test("while a delegation is active the delegate's personal key sees and works the delegator's tasks", async () => {
  const res = await t.request('POST', '/tasks', { body: { title: "Owner's task", assignees: [owner] } });
  assert.equal(res.status, 201, res.text);
  const task = res.body.data;
  const visibleToMember = async () => (await t.request('GET', `/tasks/${task.id}`, { key: 'personal' })).status;
  const listedToMember = async () =>
    (await t.request('GET', '/tasks?limit=200', { key: 'personal' })).body.data.some(
      (x: { id: number }) => x.id === task.id,
    );
  assert.equal(await visibleToMember(), 404, 'not assigned to the member, no client: invisible');

  const future = await createDelegation({
    delegator_id: owner,
    delegate_id: member,
    date_from: shiftDay(today, 1),
    date_until: shiftDay(today, 5),
  });
  assert.equal(await visibleToMember(), 404, 'a delegation that has not started grants nothing');
  const toSomeoneElse = await createDelegation({
    delegator_id: owner,
    delegate_id: third,
    date_from: today,
    date_until: today,
  });
  assert.equal(await visibleToMember(), 404);

  const active = await createDelegation({
    delegator_id: owner,
    delegate_id: member,
    date_from: shiftDay(today, -2),
    date_until: today,
  });
  assert.equal(await visibleToMember(), 200);
  assert.equal(await listedToMember(), true);
  const worked = await t.request('PATCH', `/tasks/${task.id}`, { key: 'personal', body: { status: 'in_progress' } });
  assert.equal(worked.status, 200, worked.text);
  const comment = await t.request('POST', `/tasks/${task.id}/comments`, { key: 'personal', body: { body: 'On it' } });
  assert.equal(comment.status, 201, comment.text);

  // Ending it (delete, or a range that no longer covers today) takes the tasks away again.
  const ended = await t.request('PATCH', `/delegations/${active.id}`, { body: { date_until: shiftDay(today, -1) } });
  assert.equal(ended.status, 200);
  assert.equal(await visibleToMember(), 404);
  assert.equal(await listedToMember(), false);
  assert.equal((await t.request('PATCH', `/delegations/${active.id}`, { body: { date_until: today } })).status, 200);
  assert.equal(await visibleToMember(), 200);
  assert.equal((await t.request('DELETE', `/delegations/${active.id}`)).status, 204);
  assert.equal(await visibleToMember(), 404);
  await t.request('DELETE', `/delegations/${future.id}`);
  await t.request('DELETE', `/delegations/${toSomeoneElse.id}`);
});

test("'today' is the company's local day", async () => {
  const zone = 'Pacific/Kiritimati'; // UTC+14: its day differs from UTC's for ten hours of every day
  const tenant = await t.newTenant({ timezone: zone });
  const local = localToday(zone);
  const body = {
    delegator_id: tenant.ownerPersonId,
    delegate_id: tenant.memberPersonId,
    date_from: local,
    date_until: local,
  };
  const res = await t.request('POST', '/delegations', { body, tenant });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.active, true);
  const task = await t.request('POST', '/tasks', {
    body: { title: 'Far east', assignees: [tenant.ownerPersonId] },
    tenant,
  });
  assert.equal((await t.request('GET', `/tasks/${task.body.data.id}`, { key: 'personal', tenant })).status, 200);
});

test('POST /delegations honours Idempotency-Key', async () => {
  const body = { delegator_id: owner, delegate_id: third, date_from: today, date_until: today };
  const headers = { 'idempotency-key': 'delegation-once' };
  const first = await t.request('POST', '/delegations', { body, headers });
  const again = await t.request('POST', '/delegations', { body, headers });
  assert.equal(first.status, 201, first.text);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(again.body, first.body);
  const stored = await t.db.db
    .selectFrom('delegations')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('delegate_id', '=', third)
    .where('deleted_at', 'is', null)
    .execute();
  assert.deepEqual(
    stored.map((r) => r.id),
    [first.body.data.id],
  );
});
