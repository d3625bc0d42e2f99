import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { createClient, createRole } from './fixtures.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other workflow co' });

/** A workflow template with one master task under a plan client, applied to `clientId` as `taskId`. */
async function linkInstance(clientId: number, taskId: number) {
  const company_id = t.tenant.companyId;
  const plan = await createClient(t, { name: 'Template plan' });
  await t.db.db
    .updateTable('clients')
    .set({ type: 'plan' })
    .where('company_id', '=', company_id)
    .where('id', '=', plan.id)
    .execute();
  const template = await t.db.db
    .insertInto('workflow_templates')
    .values({ company_id, kind: 'workflow_template', name: 'Year end', plan_client_id: plan.id } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const master = await t.db.db
    .insertInto('tasks')
    .values({ company_id, client_id: plan.id, title: 'Master', template_kind: 'workflow_template' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db.db
    .insertInto('workflow_applications')
    .values({ company_id, template_id: template.id, client_id: clientId } as never)
    .execute();
  await t.db.db
    .insertInto('workflow_instances')
    .values({
      company_id,
      task_id: taskId,
      template_id: template.id,
      master_task_id: master.id,
      client_id: clientId,
    } as never)
    .execute();
  return { templateId: template.id, masterId: master.id };
}

async function createTask(body: Record<string, unknown>): Promise<number> {
  const res = await t.request('POST', '/tasks', { body: { title: 'Task', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

test('workflow tasks: instances of a template and tasks with workflow roles, with their role holders', async () => {
  const client = await createClient(t, { default_person_id: t.tenant.memberPersonId });
  const role = await createRole(t, 'Bookkeeper');
  await t.request('PUT', `/clients/${client.id}/member-roles`, {
    body: { members: [{ person_id: t.tenant.memberPersonId, workflow_role_id: role }] },
  });
  const roled = await createTask({ client_id: client.id, workflow_role_ids: [role], status: 'in_progress' });
  const instance = await createTask({ client_id: client.id, assignees: [t.tenant.ownerPersonId] });
  const plain = await createTask({ client_id: client.id });
  const elsewhere = await createTask({ workflow_role_ids: [role] });
  const deleted = await createTask({ client_id: client.id, workflow_role_ids: [role] });
  assert.equal((await t.request('DELETE', `/tasks/${deleted}`)).status, 204);
  const { templateId, masterId } = await linkInstance(client.id, instance);

  const res = await t.request('GET', `/clients/${client.id}/workflow-tasks`, { key: 'read' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.meta, { total: 2, limit: 50, offset: 0, has_more: false });
  const [first, second] = res.body.data;
  assert.deepEqual(
    [first.id, first.workflow_role_ids, first.role_holder_ids, first.template_id, first.master_task_id, first.status],
    [roled, [role], [t.tenant.memberPersonId], null, null, 'in_progress'],
  );
  assert.deepEqual(
    [second.id, second.template_id, second.master_task_id, second.assignees, second.role_holder_ids],
    [instance, templateId, masterId, [t.tenant.ownerPersonId], []],
  );
  assert.deepEqual(Object.keys(first).sort(), [
    'assignees',
    'created_at',
    'date',
    'due_date',
    'finished_at',
    'id',
    'master_task_id',
    'project_id',
    'role_holder_ids',
    'status',
    'template_id',
    'title',
    'type',
    'updated_at',
    'workflow_role_ids',
  ]);
  assert.ok(![plain, elsewhere, deleted, masterId].some((id) => res.body.data.some((r: any) => r.id === id)));

  const byTemplate = await t.request('GET', `/clients/${client.id}/workflow-tasks?template_id=${templateId}`);
  assert.deepEqual(
    byTemplate.body.data.map((r: any) => r.id),
    [instance],
  );
  const byStatus = await t.request('GET', `/clients/${client.id}/workflow-tasks?status=new,finished&sort=-id`);
  assert.deepEqual(
    byStatus.body.data.map((r: any) => r.id),
    [instance],
  );
  const member = await t.request('GET', `/clients/${client.id}/workflow-tasks`, { key: 'personal' });
  assert.equal(member.status, 200, 'the manager sees their client');
  assert.equal(member.body.data.length, 2);

  const bad: Array<[string, number, string]> = [
    ['?cursor=abc', 400, 'INVALID_CURSOR'],
    ['?assignee_id=1', 400, 'UNKNOWN_FILTER_FIELD'],
    ['?template_id=abc', 422, 'INVALID_FILTER_VALUE'],
    ['?status=NEW', 422, 'INVALID_FILTER_VALUE'],
    ['?limit=500', 400, 'VALIDATION_ERROR'],
  ];
  for (const [query, status, code] of bad) {
    const r = await t.request('GET', `/clients/${client.id}/workflow-tasks${query}`);
    assert.equal(r.status, status, `${query}: ${r.text}`);
    assert.equal(r.body.error.code, code);
  }
  const foreign = await createClient(t, {}, other);
  assert.equal((await t.request('GET', `/clients/${foreign.id}/workflow-tasks`)).status, 404);
  const hidden = await createClient(t);
  assert.equal((await t.request('GET', `/clients/${hidden.id}/workflow-tasks`, { key: 'personal' })).status, 404);
});
