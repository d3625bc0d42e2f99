import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { createClient, createTask, insertClient, insertProject, insertTaskRow } from './fixtures.ts';

const t = await createTestApp();
const other = await t.newTenant();

const clientA = await createClient(t, { name: 'A' });
const clientB = await createClient(t, { name: 'B' });
const projectA = await insertProject(t, clientA);
const topic = (await t.request('POST', '/topics', { body: { name: 'Billing' } })).body.data.id as number;
const planClient = await insertClient(t, { name: 'Onboarding template', type: 'plan' });

const alpha = await createTask(t, {
  title: 'Alpha review',
  client_id: clientA,
  project_id: projectA,
  status: 'in_progress',
  is_important: true,
  assignees: [t.tenant.memberPersonId],
});
const beta = await createTask(t, { title: 'Beta 100% done', client_id: clientB, topic_id: topic, status: 'finished' });
const gamma = await createTask(t, { title: 'Gamma call', type: 'request', assignees: [t.tenant.ownerPersonId] });
const clientless = await createTask(t, { title: 'Delta client-less' });
const chat = await createTask(t, { title: 'Chat row', type: 'chat' });
const timer = await insertTaskRow(t, { title: 'Timer row', type: 'button', client_id: clientA });
const clientlessTimer = await insertTaskRow(t, { title: 'Timer without client', type: 'button' });
const workflowTemplate = await insertTaskRow(t, {
  title: 'Workflow template row',
  template_kind: 'workflow_template',
  client_id: planClient,
});
const projectWorkflow = await insertTaskRow(t, { title: 'Project workflow row', template_kind: 'project_workflow' });
const planMaster = await insertTaskRow(t, { title: 'Plan master row', client_id: planClient });
await createTask(t, { title: 'Other tenant task' }, { tenant: other });

const idsOf = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((task) => task.id);
const list = async (query: string, key = 'read') => {
  const res = await t.request('GET', `/tasks${query}`, { key });
  assert.equal(res.status, 200, res.text);
  return res;
};

test('without a type filter only live task and request rows are listed, and meta.total follows the fence', async () => {
  const res = await list('');
  assert.deepEqual(idsOf(res), [alpha.id, beta.id, gamma.id, clientless.id]);
  assert.deepEqual(res.body.meta, { total: 4, limit: 50, offset: 0, has_more: false, next_cursor: null });
  assert.deepEqual(res.body.data[0], alpha);
});

test('type filters reach timer rows and chats; a template client lists its template rows', async () => {
  assert.deepEqual(idsOf(await list('?type=button')), [timer, clientlessTimer]);
  assert.equal((await list('?type=button')).body.meta.total, 2);
  assert.deepEqual(idsOf(await list('?type=chat')), [chat.id]);
  assert.deepEqual(idsOf(await list('?type=request')), [gamma.id]);
  const plan = await list(`?client_id=${planClient}`);
  assert.deepEqual(idsOf(plan), [workflowTemplate, planMaster]);
  assert.equal(plan.body.meta.total, 2);
  assert.deepEqual(
    idsOf(await list(`?client_id=${clientA}`)),
    [alpha.id],
    'a normal client lists no timer row without type',
  );
});

test('GET /tasks/{task_id} reaches template and timer rows', async () => {
  for (const id of [timer, workflowTemplate, projectWorkflow, planMaster, chat.id]) {
    const res = await t.request('GET', `/tasks/${id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.id, id);
  }
  const timerRead = await t.request('GET', `/tasks/${timer}`);
  assert.equal(timerRead.body.data.type, 'button');
  assert.equal(timerRead.body.data.tracked_time, 0);
});

test('every filter narrows the list', async () => {
  assert.deepEqual(idsOf(await list('?status=in_progress,finished')), [alpha.id, beta.id]);
  assert.deepEqual(idsOf(await list('?status=new')), [gamma.id, clientless.id]);
  assert.deepEqual(idsOf(await list(`?client_id=${clientB}`)), [beta.id]);
  assert.deepEqual(idsOf(await list(`?project_id=${projectA}`)), [alpha.id]);
  assert.deepEqual(idsOf(await list(`?topic_id=${topic}`)), [beta.id]);
  assert.deepEqual(idsOf(await list(`?assignee_id=${t.tenant.memberPersonId}`)), [alpha.id]);
  assert.deepEqual(idsOf(await list(`?assignee_id=${t.tenant.ownerPersonId}&type=request`)), [gamma.id]);
  assert.deepEqual(idsOf(await list('?q=ALPHA')), [alpha.id]);
  assert.deepEqual(idsOf(await list('?q=100%25')), [beta.id], 'q matches % literally');
  assert.deepEqual(idsOf(await list('?q=a_')), [], 'q matches _ literally');
  assert.deepEqual(idsOf(await list('?is_important=true')), [alpha.id]);
  assert.deepEqual(idsOf(await list('?is_important=1')), [alpha.id]);
  assert.deepEqual(idsOf(await list('?is_important=false')), [beta.id, gamma.id, clientless.id]);
  assert.deepEqual(idsOf(await list('?is_important=0&status=finished')), [beta.id]);
});

test('invalid filter values are 422 and unknown filters 400', async () => {
  for (const query of [
    'status=done',
    'status=new,',
    'type=timer',
    'client_id=abc',
    'client_id=0',
    'assignee_id=x',
    'is_important=yes',
    'topic_id=-1',
    'project_id=1.5',
    `q=${'x'.repeat(256)}`,
  ]) {
    const res = await t.request('GET', `/tasks?${query}`);
    assert.equal(res.status, 422, `${query}: ${res.text}`);
    assert.equal(res.body.error.code, 'INVALID_FILTER_VALUE');
  }
  const unknown = await t.request('GET', '/tasks?template_kind=workflow_template');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  for (const query of ['sort=description', 'sort=date', 'limit=0', 'limit=201', 'offset=10001']) {
    const res = await t.request('GET', `/tasks?${query}`);
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
});

test('sorting by id, title, status, created_at and updated_at', async () => {
  assert.deepEqual(idsOf(await list('?sort=-id')), [clientless.id, gamma.id, beta.id, alpha.id]);
  assert.deepEqual(idsOf(await list('?sort=title')), [alpha.id, beta.id, clientless.id, gamma.id]);
  assert.deepEqual(idsOf(await list('?sort=status')), [beta.id, alpha.id, gamma.id, clientless.id]);
  assert.deepEqual(idsOf(await list('?sort=-created_at')), [clientless.id, gamma.id, beta.id, alpha.id]);
  assert.deepEqual(idsOf(await list('?sort=updated_at')), [alpha.id, beta.id, gamma.id, clientless.id]);
  const paged = await list('?limit=2&offset=1');
  assert.deepEqual(idsOf(paged), [beta.id, gamma.id]);
  assert.deepEqual({ total: paged.body.meta.total, has_more: paged.body.meta.has_more }, { total: 4, has_more: true });
});

test('cursor pages follow the same fence and filters', async () => {
  const seen: number[] = [];
  let res = await list('?limit=1&sort=-title');
  seen.push(...idsOf(res));
  while (res.body.meta.next_cursor) {
    res = await list(`?limit=1&cursor=${encodeURIComponent(res.body.meta.next_cursor)}`);
    assert.equal(res.body.meta.total, undefined, 'cursor pages carry no total');
    seen.push(...idsOf(res));
  }
  assert.deepEqual(seen, [gamma.id, clientless.id, beta.id, alpha.id]);
  const timers = await list('?type=button&limit=1');
  const next = await list(`?cursor=${encodeURIComponent(timers.body.meta.next_cursor)}`);
  assert.deepEqual(idsOf(next), [clientlessTimer]);
  assert.equal(next.body.meta.has_more, false);
  const bad = await t.request('GET', '/tasks?cursor=nonsense');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'INVALID_CURSOR');
  const changed = await t.request('GET', `/tasks?type=chat&cursor=${encodeURIComponent(timers.body.meta.next_cursor)}`);
  assert.equal(changed.status, 400);
  assert.equal(changed.body.error.code, 'INVALID_CURSOR');
});

test("a plain member lists only their visible tasks; the owner's personal key lists all", async () => {
  const member = await list('', 'personal');
  assert.deepEqual(idsOf(member), [alpha.id]);
  assert.equal(member.body.meta.total, 1);
  assert.deepEqual(idsOf(await list('', 'personalAdmin')), [alpha.id, beta.id, gamma.id, clientless.id]);
});
