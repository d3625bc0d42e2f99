import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { reportKit } from './support.ts';

const t = await createTestApp();
const kit = reportKit(t);
const { ownerPersonId: owner, memberPersonId: member } = t.tenant;
const MARCH = 'date_from=2025-03-01&date_to=2025-03-31';

// March 2025: owner 2 h (A1) + 1 h (A2, non-billable topic) + 1.5 h (B1, entry not billable) + 0.25 h (N) + 10 min
// (C1); member 3 h (A1) + 0.5 h (B1). Outside: a February entry and a running one.
const acme = await kit.client('Acme');
const beta = await kit.client('Beta');
const gamma = await kit.client('Gamma');
const advice = await kit.topic('Advice', true);
const internal = await kit.topic('Internal', false);
const p1 = await kit.project('Launch');
const a1 = await kit.task('A1', { client_id: acme, topic_id: advice, project_id: p1 });
const a2 = await kit.task('A2', { client_id: acme, topic_id: internal });
const b1 = await kit.task('B1', { client_id: beta });
const c1 = await kit.task('C1', { client_id: gamma });
const n = await kit.task('No client');
await kit.entry(a1, owner, '2025-03-03T08:00:00Z', 2);
await kit.entry(a2, owner, '2025-03-04T08:00:00Z', 1);
await kit.entry(b1, owner, '2025-03-05T08:00:00Z', 1.5, false);
await kit.entry(n, owner, '2025-03-06T08:00:00Z', 0.25);
await kit.entry(c1, owner, '2025-03-07T08:00:00Z', 1 / 6);
await kit.entry(a1, member, '2025-03-03T12:00:00Z', 3);
await kit.entry(b1, member, '2025-03-04T12:00:00Z', 0.5);
await kit.entry(a1, owner, '2025-02-28T08:00:00Z', 4);
const running = await t.request('POST', '/time-entries', {
  body: { task_id: n, person_id: member, start: '2025-03-10T08:00:00Z' },
});
assert.equal(running.status, 201, running.text);

const fig = (seconds: number, billable: number) => ({
  seconds,
  billable_seconds: billable,
  non_billable_seconds: seconds - billable,
  hours: Math.round((seconds / 3600) * 100) / 100,
  billable_hours: Math.round((billable / 3600) * 100) / 100,
  non_billable_hours: Math.round(((seconds - billable) / 3600) * 100) / 100,
});

async function summary(query: string, key = 'read') {
  const res = await t.request('GET', `/reports/time-summary?${query}`, { key });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  return res.body.data;
}

test('time-summary by person (the default): totals and groups, billable = entry and topic billable', async () => {
  const data = await summary(MARCH);
  assert.equal(data.group_by, 'person');
  assert.equal(data.timezone, 'UTC');
  assert.deepEqual(data.totals, fig(30300, 21300));
  assert.equal(data.totals.hours, 8.42);
  assert.equal(data.totals.billable_hours, 5.92);
  assert.deepEqual(data.groups, [
    { id: owner, name: 'Olive Owner', ...fig(17700, 8700) },
    { id: member, name: 'Mark Member', ...fig(12600, 12600) },
  ]);
  assert.equal(data.groups[0].hours, 4.92);
});

test('time-summary by client, project and topic; time without one is the null group', async () => {
  const byClient = await summary(`${MARCH}&group_by=client`);
  assert.deepEqual(byClient.groups, [
    { id: acme, name: 'Acme', ...fig(21600, 18000) },
    { id: beta, name: 'Beta', ...fig(7200, 1800) },
    { id: null, name: null, ...fig(900, 900) },
    { id: gamma, name: 'Gamma', ...fig(600, 600) },
  ]);
  const byProject = await summary(`${MARCH}&group_by=project`);
  assert.deepEqual(byProject.groups, [
    { id: p1, name: 'Launch', ...fig(18000, 18000) },
    { id: null, name: null, ...fig(12300, 3300) },
  ]);
  const byTopic = await summary(`${MARCH}&group_by=topic`);
  assert.deepEqual(byTopic.groups, [
    { id: advice, name: 'Advice', ...fig(18000, 18000) },
    { id: null, name: null, ...fig(8700, 3300) },
    { id: internal, name: 'Internal', ...fig(3600, 0) },
  ]);
  for (const data of [byClient, byProject, byTopic]) assert.deepEqual(data.totals, fig(30300, 21300));
});

test('time-summary: a personal key of a plain member counts only what it sees; another company sees nothing', async () => {
  const mine = await summary(MARCH, 'personal');
  assert.deepEqual(mine.totals, fig(12600, 12600));
  assert.deepEqual(
    mine.groups.map((g: { id: number }) => g.id),
    [member],
  );
  const other = await t.newTenant({ name: 'Other Co' });
  const res = await t.request('GET', `/reports/time-summary?${MARCH}`, { tenant: other });
  assert.deepEqual(res.body.data.totals, fig(0, 0));
  assert.deepEqual(res.body.data.groups, []);
});

test('time-summary: days are local days of the company time zone', async () => {
  const tallinn = await t.newTenant({ name: 'Tallinn Co', timezone: 'Europe/Tallinn' });
  const tk = reportKit(t, tallinn);
  const task = await tk.task('Work');
  await tk.entry(task, tallinn.ownerPersonId, '2025-02-28T22:30:00Z', 1); // 1 March, 00:30 local
  await tk.entry(task, tallinn.ownerPersonId, '2025-03-31T21:30:00Z', 2); // 1 April, 00:30 local
  const res = await t.request('GET', `/reports/time-summary?${MARCH}`, { tenant: tallinn });
  assert.equal(res.body.data.timezone, 'Europe/Tallinn');
  assert.deepEqual(res.body.data.totals, fig(3600, 3600));
});

test('time-summary: bad parameters are 400', async () => {
  for (const [query, code] of [
    ['group_by=team', 'VALIDATION_ERROR'],
    ['group_by=person%00', 'VALIDATION_ERROR'],
    ['date_from=2025-04-01&date_to=2025-03-01', 'VALIDATION_ERROR'],
    ['date_from=2025-02-29', 'VALIDATION_ERROR'],
    ['person_id=1', 'UNKNOWN_FILTER_FIELD'],
  ]) {
    const res = await t.request('GET', `/reports/time-summary?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.error.code, code, query);
  }
  const none = await t.request('GET', '/reports/time-summary', { key: null });
  assert.equal(none.status, 401);
});
