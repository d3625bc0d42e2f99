import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { addMaster, createTemplate, events } from './fixtures.ts';

// Template (plan) clients and master tasks are workflow configuration: fenced out of the client list and
// read-only through /clients and /tasks (decision 0041).
const t = await createTestApp();
const P = '/workflow-templates';

const ids = (res: { body: any }) => res.body.data.map((row: { id: number }) => row.id);

async function customer(name: string) {
  const res = await t.request('POST', '/clients', { body: { name } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as number;
}

test('template clients are left out of the client list, its total, search, filters and cursor pages', async () => {
  const acme = await customer('Onboarding Acme');
  const template = await createTemplate(t, P, { name: 'Onboarding' });
  const list = await t.request('GET', '/clients?limit=200', { key: 'read' });
  assert.equal(list.status, 200, list.text);
  assert.ok(ids(list).includes(acme));
  assert.ok(!ids(list).includes(template.client_id), 'not in the list');
  assert.equal(list.body.meta.total, list.body.data.length, 'nor in its total');
  const search = await t.request('GET', '/clients?q=Onboarding', { key: 'read' });
  assert.deepEqual(ids(search), [acme]);
  assert.equal(search.body.meta.total, 1);
  const byName = await t.request('GET', '/clients?name=Onboarding', { key: 'read' });
  assert.deepEqual(ids(byName), []);
  const active = await t.request('GET', '/clients?status=active&sort=-name', { key: 'read' });
  assert.ok(!ids(active).includes(template.client_id));
  // Walked page by page with the keyset cursor: every customer once, the template client never.
  const walked: number[] = [];
  let page = await t.request('GET', '/clients?limit=2', { key: 'read' });
  while (page.body.data.length > 0) {
    walked.push(...ids(page));
    if (!page.body.meta.next_cursor) break;
    page = await t.request('GET', `/clients?limit=2&cursor=${encodeURIComponent(page.body.meta.next_cursor)}`, {
      key: 'read',
    });
    assert.equal(page.status, 200, page.text);
  }
  assert.deepEqual(walked, ids(list));
});

test('a template client stays reachable by id (type plan) and is changed only through its template', async () => {
  const template = await createTemplate(t, P, { name: 'Year-end' });
  const one = await t.request('GET', `/clients/${template.client_id}`, { key: 'read' });
  assert.equal(one.status, 200, one.text);
  assert.deepEqual([one.body.data.type, one.body.data.name], ['plan', 'Year-end']);
  const before = (await events(t, 'client.updated')).length;
  const patch = await t.request('PATCH', `/clients/${template.client_id}`, { body: { name: 'Renamed' } });
  assert.equal(patch.status, 403, patch.text);
  assert.equal(patch.body.error.code, 'READ_ONLY');
  assert.deepEqual(
    [patch.body.error.details.reason, patch.body.error.details.template_id, patch.body.error.details.path],
    ['TEMPLATE_CLIENT', template.id, `${P}/${template.id}`],
  );
  const del = await t.request('DELETE', `/clients/${template.client_id}`);
  assert.equal(del.status, 403, del.text);
  assert.equal(del.body.error.code, 'READ_ONLY');
  assert.equal((await t.request('GET', `/clients/${template.client_id}`)).body.data.name, 'Year-end');
  assert.equal((await events(t, 'client.updated')).length, before, 'no client event');
  assert.equal((await events(t, 'client.deleted')).length, 0);
  const child = await t.request('POST', '/clients', { body: { name: 'Kid', parent_id: template.client_id } });
  assert.equal(child.status, 400, child.text);
  assert.equal(child.body.error.code, 'INVALID_CLIENT');
  const renamed = await t.request('PATCH', `${P}/${template.id}`, { body: { name: 'Year-end 2027' } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal((await t.request('GET', `/clients/${template.client_id}`)).body.data.name, 'Year-end 2027');
});

test('master tasks are read-only through /tasks, pointing at the template routes, and fire no task events', async () => {
  const template = await createTemplate(t, P, { name: 'Masters' });
  const master = await addMaster(t, `${P}/${template.id}`, { title: 'Collect papers' });
  const read = await t.request('GET', `/tasks/${master.id}`, { key: 'read' });
  assert.equal(read.status, 200, read.text);
  const before = (await events(t)).length;
  const attempts: Array<[string, string, unknown]> = [
    ['PATCH', `/tasks/${master.id}`, { title: 'Changed' }],
    ['PATCH', `/tasks/${master.id}`, {}],
    ['DELETE', `/tasks/${master.id}`, undefined],
    ['POST', `/tasks/${master.id}/complete`, undefined],
    ['PUT', `/tasks/${master.id}/checklist`, { items: [{ text: 'x', done: false }] }],
  ];
  for (const [method, path, body] of attempts) {
    const res = await t.request(method, path, body === undefined ? {} : { body });
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.error.code, 'READ_ONLY');
    assert.equal(res.body.error.details.reason, 'TEMPLATE_TASK');
    assert.equal(res.body.error.details.path, `${P}/${template.id}/tasks/${master.id}`);
  }
  const stored = await t.db.db
    .selectFrom('tasks')
    .select(['title', 'status', 'deleted_at'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', master.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(stored, { title: 'Collect papers', status: 'new', deleted_at: null });
  assert.equal((await events(t)).length, before, 'nothing fired');
  const viaTemplate = await t.request('PATCH', `${P}/${template.id}/tasks/${master.id}`, {
    body: { title: 'Changed' },
  });
  assert.equal(viaTemplate.status, 200, viaTemplate.text);
  assert.equal((await events(t)).length, before, 'the template route fires none either');
});

test('a project workflow master points at its own route; reopen is refused too', async () => {
  const workflow = await createTemplate(t, '/project-workflows', { name: 'Fit-out' });
  const master = await addMaster(t, `/project-workflows/${workflow.id}`, { title: 'Measure' });
  await t.db.db
    .updateTable('tasks')
    .set({ status: 'finished' })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', master.id)
    .execute();
  const res = await t.request('POST', `/tasks/${master.id}/reopen`);
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.error.details.path, `/project-workflows/${workflow.id}/tasks/${master.id}`);
});

test('work cannot be filed under a template client, and bulk actions do not reach master rows', async () => {
  const template = await createTemplate(t, P, { name: 'Bulk fence' });
  const master = await addMaster(t, `${P}/${template.id}`, { title: 'Keep me' });
  const created = await t.request('POST', '/tasks', { body: { title: 'Stray', client_id: template.client_id } });
  assert.equal(created.status, 400, created.text);
  assert.deepEqual([created.body.error.code, created.body.error.details.reason], ['INVALID_CLIENT', 'TEMPLATE_CLIENT']);
  const task = await t.request('POST', '/tasks', { body: { title: 'Real work' } });
  const moved = await t.request('PATCH', `/tasks/${task.body.data.id}`, { body: { client_id: template.client_id } });
  assert.equal(moved.status, 400, moved.text);
  assert.equal(moved.body.error.details.reason, 'TEMPLATE_CLIENT');
  const byIds = await t.request('POST', '/tasks/bulk-action', {
    body: { action: 'delete', filter: { ids: [master.id, task.body.data.id] } },
  });
  assert.equal(byIds.status, 403, byIds.text);
  assert.equal(byIds.body.error.code, 'READ_ONLY');
  assert.deepEqual(byIds.body.error.details.invalid_ids, [master.id]);
  const byClient = await t.request('POST', '/tasks/bulk-action', {
    body: { action: 'delete', filter: { client_id: template.client_id } },
  });
  assert.equal(byClient.status, 400, byClient.text);
  assert.equal(byClient.body.error.details.reason, 'TEMPLATE_CLIENT');
  const list = await t.request('GET', `/tasks?client_id=${template.client_id}`, { key: 'read' });
  assert.deepEqual(ids(list), [master.id], 'the master is still there');
});
