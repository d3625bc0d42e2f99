import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { projectFixtures } from './fixtures.ts';

const t = await createTestApp();
const f = projectFixtures(t);
const member = t.tenant.memberPersonId;

// The plain member belongs to A and B; C and D are clients they cannot see.
const clientA = await f.createClient('Move A');
const clientB = await f.createClient('Move B');
const clientC = await f.createClient('Move C');
const clientD = await f.createClient('Move D');
await f.addMember(clientA);
await f.addMember(clientB);

test('a different client_id moves the project and its live tasks; one task.updated per moved task', async () => {
  const project = await f.createProject({ name: 'Mover', client_id: clientA });
  const other = await f.createProject({ name: 'Bystander', client_id: clientA });
  const t1 = await f.insertTask({ title: 'one', client_id: clientA, project_id: project });
  const t2 = await f.insertTask({ title: 'two', client_id: clientC, project_id: project });
  const gone = await f.insertTask({ title: 'deleted', client_id: clientA, project_id: project, deleted: true });
  const unrelated = await f.insertTask({ title: 'other project', client_id: clientA, project_id: other });
  const before = await f.taskClients([gone, unrelated]);
  const since = await f.lastEventId();
  const res = await t.request('PATCH', `/projects/${project}`, {
    key: 'write',
    body: { client_id: clientD, name: 'Mover (D)' },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  assert.equal(res.body.data.client_id, clientD);
  assert.equal(res.body.data.name, 'Mover (D)');
  assert.equal((await f.storedProject(project))?.client_id, clientD);
  assert.deepEqual(
    (await f.taskClients([t1, t2])).map((r) => r.client_id),
    [clientD, clientD],
  );
  assert.deepEqual(
    await f.taskClients([gone, unrelated]),
    before,
    "deleted tasks and other projects' tasks keep their client",
  );
  const events = await f.eventsSince(since);
  assert.deepEqual(
    events.map((e) => [e.event, e.record_id]),
    [
      ['task.updated', t1],
      ['task.updated', t2],
      ['project.updated', project],
    ],
  );
  const taskData = events[0]!.data as { id: number; client_id: number; project_id: number; title: string };
  assert.equal(taskData.client_id, clientD);
  assert.equal(taskData.project_id, project);
  assert.equal(taskData.title, 'one');
  assert.deepEqual(events[2]!.data, res.body.data);
});

test('re-sending the current client_id is a no-op: nothing written, no event', async () => {
  const project = await f.createProject({ name: 'Stay', client_id: clientA });
  const task = await f.insertTask({ title: 'stay', client_id: clientA, project_id: project });
  const stored = await f.storedProject(project);
  const tasksBefore = await f.taskClients([task]);
  const since = await f.lastEventId();
  const res = await t.request('PATCH', `/projects/${project}`, { body: { client_id: clientA } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.updated_at, stored?.updated_at);
  assert.deepEqual(await f.storedProject(project), stored);
  assert.deepEqual(await f.taskClients([task]), tasksBefore);
  assert.deepEqual(await f.eventsSince(since), []);
  const withName = await t.request('PATCH', `/projects/${project}`, {
    body: { client_id: clientA, name: 'Stay renamed' },
  });
  assert.equal(withName.status, 200);
  assert.deepEqual(await f.taskClients([task]), tasksBefore, 'the same client moves no task');
  assert.deepEqual(
    (await f.eventsSince(since)).map((e) => e.event),
    ['project.updated'],
  );
});

test('a project without a client can be given one: its tasks follow', async () => {
  const project = await f.createProject({ name: 'Homeless' });
  const task = await f.insertTask({ title: 'homeless', project_id: project });
  const res = await t.request('PATCH', `/projects/${project}`, { body: { client_id: clientB } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    (await f.taskClients([task])).map((r) => r.client_id),
    [clientB],
  );
});

test('409 PARTIAL_REPARENT_REFUSED counts the tasks the member cannot see; nothing is written', async () => {
  const project = await f.createProject({ name: 'Partly hidden', client_id: clientA });
  const tasks = [
    await f.insertTask({ title: 'visible via client', client_id: clientA, project_id: project }),
    await f.insertTask({ title: 'under an invisible client', client_id: clientC, project_id: project }),
    await f.insertTask({ title: 'no client, not assigned', project_id: project }),
    await f.insertTask({ title: 'no client, assigned to member', project_id: project, assignee: member }),
    await f.insertTask({
      title: 'invisible client but assigned',
      client_id: clientD,
      project_id: project,
      assignee: member,
    }),
    await f.insertTask({ title: 'hidden but deleted', client_id: clientC, project_id: project, deleted: true }),
  ];
  const storedProject = await f.storedProject(project);
  const storedTasks = await f.taskClients(tasks);
  const since = await f.lastEventId();
  const refused = await t.request('PATCH', `/projects/${project}`, {
    key: 'personal',
    body: { client_id: clientB, name: 'Should not stick' },
  });
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.error.code, 'PARTIAL_REPARENT_REFUSED');
  assert.deepEqual(refused.body.error.details, { stranded_tasks: 2 });
  assert.equal(refused.headers.get('x-api-preview'), 'true');
  assert.deepEqual(await f.storedProject(project), storedProject);
  assert.deepEqual(await f.taskClients(tasks), storedTasks);
  assert.deepEqual(await f.eventsSince(since), []);

  // The owner's personal key sees every task, so the same move goes through.
  const moved = await t.request('PATCH', `/projects/${project}`, {
    key: 'personalAdmin',
    body: { client_id: clientB },
  });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual(
    (await f.taskClients(tasks)).map((r) => r.client_id),
    [clientB, clientB, clientB, clientB, clientB, clientC],
  );
  assert.equal((await f.eventsSince(since)).filter((e) => e.event === 'task.updated').length, 5);
});

test('a member moves a project whose tasks they all see, between clients they belong to', async () => {
  const project = await f.createProject({ name: 'Member move', client_id: clientA });
  const task = await f.insertTask({ title: 'seen', client_id: clientA, project_id: project });
  const res = await t.request('PATCH', `/projects/${project}`, { key: 'personal', body: { client_id: clientB } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.client_id, clientB);
  assert.deepEqual(
    (await f.taskClients([task])).map((r) => r.client_id),
    [clientB],
  );
});

test('a member needs the manage-client right on both clients: INVALID_CLIENT for the destination, 403 for the current one', async () => {
  const project = await f.createProject({ name: 'Guarded', client_id: clientA });
  const task = await f.insertTask({ title: 'guarded', client_id: clientA, project_id: project });
  const stored = await f.storedProject(project);
  const toHidden = await t.request('PATCH', `/projects/${project}`, { key: 'personal', body: { client_id: clientC } });
  assert.equal(toHidden.status, 400, toHidden.text);
  assert.equal(toHidden.body.error.code, 'INVALID_CLIENT');
  assert.deepEqual(await f.storedProject(project), stored);
  assert.deepEqual(
    (await f.taskClients([task])).map((r) => r.client_id),
    [clientA],
  );

  // Visible because they manage it, but its client is not theirs to manage.
  const managed = await f.createProject({ name: 'Managed elsewhere', client_id: clientC, manager_id: member });
  assert.equal((await t.request('GET', `/projects/${managed}`, { key: 'personal' })).status, 200);
  const fromHidden = await t.request('PATCH', `/projects/${managed}`, {
    key: 'personal',
    body: { client_id: clientA },
  });
  assert.equal(fromHidden.status, 403, fromHidden.text);
  assert.equal(fromHidden.body.error.code, 'FORBIDDEN');
  assert.deepEqual(fromHidden.body.error.details, { reason: 'CLIENT_NOT_MANAGEABLE', client_id: clientC });
  assert.equal((await f.storedProject(managed))?.client_id, clientC);
});

test("visibility: a member sees projects of their clients and those they manage; the owner's personal key sees all", async () => {
  const mine = await f.createProject({ name: 'Vis mine', client_id: clientA });
  const managed = await f.createProject({ name: 'Vis managed', client_id: clientD, manager_id: member });
  const hidden = await f.createProject({ name: 'Vis hidden', client_id: clientC });
  const orphan = await f.createProject({ name: 'Vis orphan' });
  const ids = async (key: string) =>
    (await t.request('GET', '/projects?q=Vis%20', { key })).body.data.map((p: { id: number }) => p.id);
  assert.deepEqual(await ids('personal'), [mine, managed]);
  assert.deepEqual(await ids('personalAdmin'), [mine, managed, hidden, orphan]);
  for (const id of [hidden, orphan]) {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `/projects/${id}`, { key: 'personal', body });
      assert.equal(res.status, 404, `${method} ${id}: ${res.text}`);
    }
  }
  assert.equal((await f.storedProject(hidden))?.deleted_at, null);
  assert.equal((await t.request('GET', `/projects/${hidden}`, { key: 'personalAdmin' })).status, 200);

  const typeId = await f.projectTypeId();
  const refused = await t.request('POST', '/projects', {
    key: 'personal',
    body: { name: 'On C', project_type_id: typeId, client_id: clientC },
  });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.code, 'INVALID_CLIENT');
  const own = await t.request('POST', '/projects', {
    key: 'personal',
    body: { name: 'Member own', project_type_id: typeId },
  });
  assert.equal(own.status, 201, own.text);
  assert.equal(own.body.data.manager_id, member, 'a member who names no manager manages what they create');
  const handOver = await t.request('PATCH', `/projects/${own.body.data.id}`, {
    key: 'personal',
    body: { manager_id: t.tenant.ownerPersonId },
  });
  assert.equal(handOver.status, 200, handOver.text);
  assert.equal(handOver.body.data.manager_id, t.tenant.ownerPersonId);
  assert.equal((await t.request('GET', `/projects/${own.body.data.id}`, { key: 'personal' })).status, 404);
  const byAdmin = await t.request('POST', '/projects', {
    key: 'personalAdmin',
    body: { name: 'Owner own', project_type_id: typeId },
  });
  assert.equal(byAdmin.body.data.manager_id, null);
});
