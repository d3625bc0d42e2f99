import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { assignTask, countEntries, insertClient, insertTask, logTime, storedEntry } from './fixtures.ts';

const t = await createTestApp();
const owner = t.tenant.ownerPersonId;
const member = t.tenant.memberPersonId;
// The plain member sees a task assigned to them and a task under a client they are responsible for; not the third.
const assignedTask = await insertTask(t, t.tenant, { title: 'Assigned' });
await assignTask(t, t.tenant, assignedTask, member);
const clientTask = await insertTask(t, t.tenant, {
  title: 'Client work',
  client_id: await insertClient(t, t.tenant, member),
});
const hiddenTask = await insertTask(t, t.tenant, {
  title: 'Hidden',
  client_id: await insertClient(t, t.tenant, owner),
});

const ownerHidden = (
  await logTime(t, { task_id: hiddenTask, person_id: owner, start: '2026-06-01T09:00:00Z', duration: 600 })
).body.data.id;
const ownerVisible = (
  await logTime(t, { task_id: clientTask, person_id: owner, start: '2026-06-01T10:00:00Z', duration: 600 })
).body.data.id;
const memberOnHidden = (
  await logTime(t, { task_id: hiddenTask, person_id: member, start: '2026-06-01T11:00:00Z', duration: 600 })
).body.data.id;
const memberOwn = (
  await logTime(
    t,
    { task_id: assignedTask, person_id: member, start: '2026-06-01T12:00:00Z', duration: 600 },
    { key: 'personal' },
  )
).body.data.id;

const listIds = async (key: string, query = '') => {
  const res = await t.request('GET', `/time-entries${query}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data.map((e: { id: number }) => e.id);
};

test("a plain member's personal key sees its own entries and those on tasks it sees, nothing else", async () => {
  assert.deepEqual(await listIds('personal'), [ownerVisible, memberOnHidden, memberOwn]);
  assert.deepEqual(await listIds('personal', `?task_id=${hiddenTask}`), [memberOnHidden]);
  assert.equal((await t.request('GET', '/time-entries', { key: 'personal' })).body.meta.total, 3);
  assert.deepEqual(await listIds('personalAdmin'), [ownerHidden, ownerVisible, memberOnHidden, memberOwn]);
  for (const id of [ownerVisible, memberOnHidden, memberOwn])
    assert.equal((await t.request('GET', `/time-entries/${id}`, { key: 'personal' })).status, 200);
  const own = await t.request('GET', `/time-entries/${memberOnHidden}`, { key: 'personal' });
  assert.equal(own.body.data.task_name, 'Hidden');
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { description: 'x' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/time-entries/${ownerHidden}`, { key: 'personal', body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.equal((await t.request('GET', `/time-entries/${ownerHidden}`, { key: 'personalAdmin' })).status, 200);
});

test('a plain member writes only its own time: 403 FORBIDDEN for another person, 400 INVALID_TASK for a task it cannot see', async () => {
  const before = await countEntries(t, t.tenant);
  const forOwner = await logTime(
    t,
    { task_id: assignedTask, person_id: owner, start: '2026-06-02T09:00:00Z', duration: 60 },
    { key: 'personal', status: 403 },
  );
  assert.equal(forOwner.body.error.code, 'FORBIDDEN');
  assert.equal(forOwner.body.error.details.field, 'person_id');
  const onHidden = await logTime(
    t,
    { task_id: hiddenTask, person_id: member, start: '2026-06-02T09:00:00Z', duration: 60 },
    { key: 'personal', status: 400 },
  );
  assert.equal(onHidden.body.error.code, 'INVALID_TASK');
  assert.equal(await countEntries(t, t.tenant), before);

  for (const [method, body] of [
    ['PATCH', { description: 'edited' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/time-entries/${ownerVisible}`, { key: 'personal', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  }
  const giveAway = await t.request('PATCH', `/time-entries/${memberOwn}`, {
    key: 'personal',
    body: { person_id: owner },
  });
  assert.equal(giveAway.status, 403, giveAway.text);
  const moveToHidden = await t.request('PATCH', `/time-entries/${memberOwn}`, {
    key: 'personal',
    body: { task_id: hiddenTask },
  });
  assert.equal(moveToHidden.status, 400, moveToHidden.text);
  assert.equal(moveToHidden.body.error.code, 'INVALID_TASK');
  const stored = await storedEntry(t, t.tenant, ownerVisible);
  assert.deepEqual([stored.description, stored.deleted_at], ['', null]);
  assert.deepEqual(
    [(await storedEntry(t, t.tenant, memberOwn)).person_id, (await storedEntry(t, t.tenant, memberOwn)).task_id],
    [member, assignedTask],
  );

  // Its own entry on a task it cannot see stays editable as long as the task is not changed.
  const editOwn = await t.request('PATCH', `/time-entries/${memberOnHidden}`, {
    key: 'personal',
    body: { description: 'mine', task_id: hiddenTask },
  });
  assert.equal(editOwn.status, 200, editOwn.text);
  assert.equal(editOwn.body.data.description, 'mine');
  const moveOwn = await t.request('PATCH', `/time-entries/${memberOwn}`, {
    key: 'personal',
    body: { task_id: clientTask, person_id: member },
  });
  assert.equal(moveOwn.status, 200, moveOwn.text);
  const created = await logTime(
    t,
    { task_id: clientTask, person_id: member, start: '2026-06-02T10:00:00Z', billable: false },
    { key: 'personal' },
  );
  assert.equal((await t.request('DELETE', `/time-entries/${created.body.data.id}`, { key: 'personal' })).status, 204);
});

test("a plain member's bulk naming another person is refused with the entry index", async () => {
  const before = await countEntries(t, t.tenant);
  const res = await t.request('POST', '/time-entries/bulk', {
    key: 'personal',
    body: {
      entries: [
        { task_id: assignedTask, person_id: member, start: '2026-06-03T09:00:00Z', duration: 60 },
        { task_id: assignedTask, person_id: owner, start: '2026-06-03T10:00:00Z', duration: 60 },
      ],
    },
  });
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.error.code, 'FORBIDDEN');
  assert.equal(res.body.error.details.index, 1);
  assert.equal(await countEntries(t, t.tenant), before);
});

test("owners' personal keys and integration keys write anyone's time on any task", async () => {
  const res = await logTime(
    t,
    { task_id: hiddenTask, person_id: member, start: '2026-06-04T09:00:00Z', duration: 60 },
    { key: 'personalAdmin' },
  );
  assert.equal(res.body.data.person_id, member);
  const patched = await t.request('PATCH', `/time-entries/${memberOwn}`, {
    key: 'personalAdmin',
    body: { description: 'reviewed' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal((await t.request('DELETE', `/time-entries/${res.body.data.id}`, { key: 'write' })).status, 204);
});
