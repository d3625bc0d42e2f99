import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

/**
 * Issue 24: a rule conditioned on a client or project a plain member cannot see is not shown to that member's
 * personal key (it would name the hidden client), and reads of it answer like an absent rule.
 */
const t = await createTestApp();
const ABSENT = 2147483000;

async function created(path: string, body: unknown): Promise<any> {
  const res = await t.request('POST', path, { body });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}
const rule = (name: string, conditions: Record<string, number>) =>
  created('/task-automations', {
    name,
    trigger: 'task_created',
    actions: { set_status: 'in_progress' },
    ...conditions,
  });

test("a member's personal key sees the rules of its clients and projects and of none, not the others", async () => {
  const member = t.tenant.memberPersonId;
  const projectType = (await t.request('GET', '/project-types')).body.data[0].id;
  const hiddenClient = (await created('/clients', { name: 'Hidden', default_person_id: t.tenant.ownerPersonId })).id;
  const ownClient = (await created('/clients', { name: 'Own', default_person_id: member })).id;
  const hiddenProject = (await created('/projects', { project_type_id: projectType, client_id: hiddenClient })).id;
  const managed = (await created('/projects', { project_type_id: projectType, manager_id: member })).id;
  const hidden = [await rule('Hidden client', { client_id: hiddenClient })];
  hidden.push(await rule('Hidden project', { project_id: hiddenProject }));
  hidden.push(await rule('Own client, hidden project', { client_id: ownClient, project_id: hiddenProject }));
  const shown = [await rule('Company-wide', {}), await rule('Own client', { client_id: ownClient })];
  shown.push(await rule('Managed project', { project_id: managed }));

  const listed = await t.request('GET', '/task-automations?limit=200', { key: 'personal' });
  assert.deepEqual(
    listed.body.data.map((r: { id: number }) => r.id),
    shown.map((r) => r.id),
  );
  const absent = await t.request('GET', `/task-automations/${ABSENT}`, { key: 'personal' });
  assert.equal(absent.status, 404);
  for (const r of hidden) {
    const res = await t.request('GET', `/task-automations/${r.id}`, { key: 'personal' });
    assert.equal(res.status, 404, r.name);
    assert.deepEqual(res.body, absent.body);
  }
  const filtered = await t.request('GET', `/task-automations?client_id=${hiddenClient}`, { key: 'personal' });
  assert.deepEqual(filtered.body.data, []);
  const owner = await t.request('GET', '/task-automations?limit=200', { key: 'personalAdmin' });
  assert.equal(owner.body.data.length, hidden.length + shown.length, "the owner's key sees every rule");
});
