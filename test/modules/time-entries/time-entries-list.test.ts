import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { insertClient, insertTask, insertTopic, logTime } from './fixtures.ts';

const t = await createTestApp();
const owner = t.tenant.ownerPersonId;
const member = t.tenant.memberPersonId;
const clientA = await insertClient(t, t.tenant);
const clientB = await insertClient(t, t.tenant);
const topic = await insertTopic(t, t.tenant);
const taskA = await insertTask(t, t.tenant, { client_id: clientA, topic_id: topic });
const taskB = await insertTask(t, t.tenant, { client_id: clientB });

// Created out of start order, so the default sort (start) differs from id order.
const e1 = (await logTime(t, { task_id: taskA, person_id: owner, start: '2026-05-03T09:00:00Z', duration: 600 })).body
  .data.id;
const e2 = (
  await logTime(t, { task_id: taskB, person_id: member, start: '2026-05-01T09:00:00Z', duration: 600, billable: false })
).body.data.id;
const e3 = (await logTime(t, { task_id: taskA, person_id: member, start: '2026-05-02T09:00:00Z', duration: 600 })).body
  .data.id;
const e4 = (
  await logTime(t, { task_id: taskB, person_id: owner, start: '2026-05-02T09:00:00Z', duration: 600, billable: 0 })
).body.data.id;

const ids = async (query: string) => {
  const res = await t.request('GET', `/time-entries${query}`, { key: 'read' });
  assert.equal(res.status, 200, `${query}: ${res.text}`);
  return res.body.data.map((e: { id: number }) => e.id);
};

test('default order is by start, then id; sort accepts id, start, created_at, updated_at, descending with -', async () => {
  assert.deepEqual(await ids(''), [e2, e3, e4, e1]);
  assert.deepEqual(await ids('?sort=-start'), [e1, e4, e3, e2]);
  assert.deepEqual(await ids('?sort=id'), [e1, e2, e3, e4]);
  assert.deepEqual(await ids('?sort=-created_at'), [e4, e3, e2, e1]);
  assert.deepEqual(await ids('?sort=updated_at'), [e1, e2, e3, e4]);
  const bad = await t.request('GET', '/time-entries?sort=duration');
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
});

test('filters: task_id, person_id, client_id and topic_id of the parent task, billable, start_from, start_to', async () => {
  assert.deepEqual(await ids(`?task_id=${taskA}`), [e3, e1]);
  assert.deepEqual(await ids(`?person_id=${member}`), [e2, e3]);
  assert.deepEqual(await ids(`?client_id=${clientB}`), [e2, e4]);
  assert.deepEqual(await ids(`?topic_id=${topic}`), [e3, e1]);
  assert.deepEqual(await ids('?billable=0'), [e2, e4]);
  assert.deepEqual(await ids('?billable=false'), [e2, e4]);
  assert.deepEqual(await ids('?billable=1'), [e3, e1]);
  assert.deepEqual(await ids('?billable=true'), [e3, e1]);
  assert.deepEqual(await ids('?start_from=2026-05-02T09:00:00Z'), [e3, e4, e1]);
  assert.deepEqual(await ids('?start_to=2026-05-02T09:00:00Z'), [e2, e3, e4]);
  assert.deepEqual(
    await ids(`?start_from=2026-05-02T00:00:00&start_to=${encodeURIComponent('2026-05-02T12:00:00+04:00')}`),
    [],
  );
  assert.deepEqual(
    await ids(`?start_from=2026-05-02T00:00:00&start_to=${encodeURIComponent('2026-05-02T12:00:00+02:00')}`),
    [e3, e4],
  );
  assert.deepEqual(await ids(`?person_id=${owner}&client_id=${clientB}&billable=0`), [e4]);
  const list = await t.request('GET', `/time-entries?task_id=${taskA}`);
  assert.deepEqual(list.body.meta, { total: 2, limit: 50, offset: 0, has_more: false, next_cursor: null });
});

test('unparseable filter values answer 422 INVALID_FILTER_VALUE; unknown filters 400 UNKNOWN_FILTER_FIELD', async () => {
  for (const query of [
    'start_from=yesterday',
    'start_to=2026-02-30T00:00:00',
    'start_from=2026-05-01',
    'billable=yes',
    'task_id=abc',
    'person_id=0',
    'client_id=-1',
    'topic_id=1.5',
  ]) {
    const res = await t.request('GET', `/time-entries?${query}`);
    assert.equal(res.status, 422, `${query}: ${res.text}`);
    assert.equal(res.body.error.code, 'INVALID_FILTER_VALUE', query);
    assert.equal(res.body.error.details.field, query.split('=')[0]);
  }
  const unknown = await t.request('GET', '/time-entries?project_id=1');
  assert.equal(unknown.status, 400, unknown.text);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test('cursor paging on the default (start, id) keyset and on -start', async () => {
  const first = await t.request('GET', '/time-entries?limit=2');
  assert.deepEqual(
    first.body.data.map((e: { id: number }) => e.id),
    [e2, e3],
  );
  assert.equal(first.body.meta.has_more, true);
  const second = await t.request('GET', `/time-entries?cursor=${first.body.meta.next_cursor}&limit=2`);
  assert.equal(second.status, 200, second.text);
  assert.deepEqual(
    second.body.data.map((e: { id: number }) => e.id),
    [e4, e1],
  );
  assert.deepEqual(second.body.meta, { limit: 2, has_more: false, next_cursor: null });
  const desc = await t.request('GET', `/time-entries?sort=-start&limit=3&client_id=${clientB}`);
  assert.deepEqual(
    desc.body.data.map((e: { id: number }) => e.id),
    [e4, e2],
  );
  const page1 = await t.request('GET', '/time-entries?sort=-start&limit=1&person_id=' + owner);
  const page2 = await t.request('GET', `/time-entries?cursor=${page1.body.meta.next_cursor}&limit=1`);
  assert.deepEqual([page1.body.data[0].id, page2.body.data[0].id], [e1, e4]);
  const bad = await t.request('GET', '/time-entries?cursor=nonsense.abc');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'INVALID_CURSOR');
});
