import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { addClientMember, createClient, createTask, insertProject, storedTask } from './fixtures.ts';

const t = await createTestApp();

test("a plain member's personal key sees and writes only tasks of their clients or assigned to them", async () => {
  const member = t.tenant.memberPersonId;
  const theirClient = await createClient(t, { name: 'Member default', default_person_id: member });
  const memberOf = await createClient(t, { name: 'Member via client_members' });
  await addClientMember(t, memberOf, member);
  const foreign = await createClient(t, { name: 'Not theirs' });
  const hidden = await createTask(t, { title: 'Hidden', client_id: foreign });
  const viaDefault = await createTask(t, { title: 'Via default person', client_id: theirClient });
  const viaMembership = await createTask(t, { title: 'Via membership', client_id: memberOf });
  const assigned = await createTask(t, { title: 'Assigned', client_id: foreign, assignees: [member] });
  const clientless = await createTask(t, { title: 'Client-less' });

  for (const task of [viaDefault, viaMembership, assigned])
    assert.equal((await t.request('GET', `/tasks/${task.id}`, { key: 'personal' })).status, 200);
  for (const task of [hidden, clientless]) {
    assert.equal((await t.request('GET', `/tasks/${task.id}`, { key: 'personal' })).status, 404);
    assert.equal(
      (await t.request('PATCH', `/tasks/${task.id}`, { key: 'personal', body: { title: 'Mine now' } })).status,
      404,
    );
    assert.equal((await t.request('DELETE', `/tasks/${task.id}`, { key: 'personal' })).status, 404);
    assert.equal((await t.request('GET', `/tasks/${task.id}`, { key: 'personalAdmin' })).status, 200);
  }
  assert.equal((await storedTask(t, hidden.id)).title, 'Hidden');
  const listed = await t.request('GET', '/tasks?q=i', { key: 'personal' });
  const ids = listed.body.data.map((task: { id: number }) => task.id);
  assert.ok(ids.includes(viaDefault.id) && ids.includes(viaMembership.id) && ids.includes(assigned.id));
  assert.ok(!ids.includes(hidden.id) && !ids.includes(clientless.id));
  assert.equal(listed.body.meta.total, ids.length);
  const ownerList = await t.request('GET', '/tasks?q=i', { key: 'personalAdmin' });
  assert.ok(ownerList.body.data.some((task: { id: number }) => task.id === hidden.id));

  const own = await createTask(t, { title: 'Member made' }, { key: 'personal' });
  assert.deepEqual(own.assignees, [member], 'a client-less task of a plain member is assigned to them');
  assert.equal((await t.request('GET', `/tasks/${own.id}`, { key: 'personal' })).status, 200);
  const invisibleClient = await t.request('POST', '/tasks', {
    key: 'personal',
    body: { title: 'x', client_id: foreign },
  });
  assert.equal(invisibleClient.status, 400);
  assert.equal(invisibleClient.body.error.code, 'INVALID_CLIENT');
  const invisibleProject = await t.request('POST', '/tasks', {
    key: 'personal',
    body: { title: 'x', project_id: await insertProject(t, foreign) },
  });
  assert.equal(invisibleProject.status, 400);
  assert.equal(invisibleProject.body.error.code, 'INVALID_PROJECT');
  const moveAway = await t.request('PATCH', `/tasks/${viaDefault.id}`, {
    key: 'personal',
    body: { client_id: foreign },
  });
  assert.equal(moveAway.status, 400);
  assert.equal(moveAway.body.error.code, 'INVALID_CLIENT');
  const unassign = await t.request('PATCH', `/tasks/${assigned.id}`, { key: 'personal', body: { assignees: [] } });
  assert.equal(unassign.status, 200, 'the write is echoed even though it takes the task out of sight');
  assert.equal((await t.request('GET', `/tasks/${assigned.id}`, { key: 'personal' })).status, 404);
});
