import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type Response } from '../../helpers.ts';
import { createClient, insertProject } from './fixtures.ts';

/**
 * Issue 24: a task's project_id follows the projects' own visibility rule (the one GET /projects reads): a plain
 * member may name a project they see, and one they cannot see (a client-less project someone else manages) is
 * refused exactly like an absent one.
 */
const t = await createTestApp();
const ABSENT = 2147483000;
const shape = (res: Response, id: number) =>
  JSON.stringify({ status: res.status, body: res.body }).replace(new RegExp(`\\b${id}\\b`, 'g'), 'ID');

test('a project the member cannot see is refused as a task project like an absent one, everywhere', async () => {
  const member = t.tenant.memberPersonId;
  const othersProject = await insertProject(t, null);
  await t.db.db
    .updateTable('projects')
    .set({ manager_id: t.tenant.ownerPersonId })
    .where('id', '=', othersProject)
    .execute();
  assert.equal((await t.request('GET', `/projects/${othersProject}`, { key: 'personal' })).status, 404);
  const task = (await t.request('POST', '/tasks', { key: 'personal', body: { title: 'Mine' } })).body.data;

  const writes: Array<[string, string, (id: number) => unknown]> = [
    ['POST', '/tasks', (id) => ({ title: 'In a project', project_id: id })],
    ['PATCH', `/tasks/${task.id}`, (id) => ({ project_id: id })],
    ['POST', '/tasks/bulk-action', (id) => ({ action: 'delete', filter: { project_id: id } })],
  ];
  for (const [method, path, body] of writes) {
    const absent = await t.request(method, path, { key: 'personal', body: body(ABSENT) });
    assert.equal(absent.status, 400, `${method} ${path}`);
    assert.equal(absent.body.error.code, 'INVALID_PROJECT');
    const refused = await t.request(method, path, { key: 'personal', body: body(othersProject) });
    assert.equal(shape(refused, othersProject), shape(absent, ABSENT), `${method} ${path}`);
  }
  const stored = await t.db.db.selectFrom('tasks').select('id').where('project_id', '=', othersProject).execute();
  assert.deepEqual(stored, []);

  const managed = await insertProject(t, null);
  await t.db.db.updateTable('projects').set({ manager_id: member }).where('id', '=', managed).execute();
  const inManaged = await t.request('POST', '/tasks', {
    key: 'personal',
    body: { title: 'Managed', project_id: managed },
  });
  assert.equal(inManaged.status, 201, inManaged.text);
  const client = await createClient(t, { name: 'Shown client', default_person_id: member });
  const ofClient = await insertProject(t, client);
  const inClients = await t.request('PATCH', `/tasks/${task.id}`, { key: 'personal', body: { project_id: ofClient } });
  assert.equal(inClients.status, 200, inClients.text);
  assert.equal(inClients.body.data.client_id, client, "the task takes the project's client");
});
