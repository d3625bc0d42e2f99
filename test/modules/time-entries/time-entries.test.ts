import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { countEntries, countEvents, insertClient, insertTask, insertTopic, logTime, storedEntry } from './fixtures.ts';

const t = await createTestApp();
const owner = t.tenant.ownerPersonId;
const member = t.tenant.memberPersonId;
const clientId = await insertClient(t, t.tenant);
const topicId = await insertTopic(t, t.tenant);
const task = await insertTask(t, t.tenant, { client_id: clientId, topic_id: topicId, title: 'Quarterly report' });

const FIELDS = [
  'billable',
  'client_id',
  'created_at',
  'description',
  'duration',
  'end',
  'id',
  'person_id',
  'start',
  'task_id',
  'task_name',
  'topic_id',
  'updated_at',
];

test('create, read, list, update and delete a time entry', async () => {
  const eventsBefore = await countEvents(t, t.tenant);
  const created = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-01-05T09:00:00Z',
    end: '2026-01-05T10:30:00Z',
    description: 'Drafting',
  });
  const entry = created.body.data;
  assert.deepEqual(Object.keys(entry).sort(), FIELDS);
  assert.equal(created.body.warnings, undefined);
  assert.deepEqual(
    { ...entry, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      task_id: task,
      task_name: 'Quarterly report',
      client_id: clientId,
      topic_id: topicId,
      person_id: owner,
      start: '2026-01-05T09:00:00.000Z',
      end: '2026-01-05T10:30:00.000Z',
      duration: 5400,
      billable: 1,
      description: 'Drafting',
      created_at: '',
      updated_at: '',
    },
  );
  assert.match(entry.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(created.headers.get('etag'), `"${entry.updated_at}"`);
  const row = await storedEntry(t, t.tenant, entry.id);
  assert.equal(row.start, '2026-01-05T09:00:00.000Z');
  assert.equal(row.duration, 5400);
  assert.equal(row.billable, 1);
  assert.equal(await countEvents(t, t.tenant), eventsBefore + 1);
  const event = await t.db.db
    .selectFrom('events')
    .selectAll()
    .where('record_id', '=', entry.id)
    .where('entity', '=', 'time_entry')
    .executeTakeFirstOrThrow();
  assert.equal((event.data as { task_name: string }).task_name, 'Quarterly report');

  const read = await t.request('GET', `/time-entries/${entry.id}`, { key: 'read' });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.data, entry);
  const listed = await t.request(
    'GET',
    `/time-entries?task_id=${task}&start_from=2026-01-05T00:00:00Z&start_to=2026-01-05T23:59:59Z`,
    { key: 'read' },
  );
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data, [entry]);
  assert.deepEqual(listed.body.meta, { total: 1, limit: 50, offset: 0, has_more: false, next_cursor: null });

  const patched = await t.request('PATCH', `/time-entries/${entry.id}`, {
    key: 'write',
    body: { billable: false, description: 'Drafting, part 1' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.billable, 0);
  assert.equal(patched.body.data.description, 'Drafting, part 1');
  assert.equal(patched.body.data.duration, 5400);
  assert.ok(patched.body.data.updated_at > entry.updated_at);
  assert.equal((await storedEntry(t, t.tenant, entry.id)).billable, 0);
  const unchanged = await t.request('PATCH', `/time-entries/${entry.id}`, { body: {} });
  assert.deepEqual(unchanged.body.data, patched.body.data);
  assert.equal(await countEvents(t, t.tenant), eventsBefore + 1, 'only creation fires an event');

  const deleted = await t.request('DELETE', `/time-entries/${entry.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  assert.notEqual((await storedEntry(t, t.tenant, entry.id)).deleted_at, null);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { description: 'x' }],
    ['DELETE', undefined],
  ] as const) {
    const gone = await t.request(method, `/time-entries/${entry.id}`, { body });
    assert.equal(gone.status, 404, `${method}: ${gone.text}`);
    assert.equal(gone.body.error.code, 'NOT_FOUND');
  }
  assert.equal(await countEvents(t, t.tenant), eventsBefore + 1);
});

test('billable accepts booleans and 0/1; duration without end closes the entry at start + duration', async () => {
  const a = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-01-06T08:00:00Z',
    duration: 900,
    billable: 0,
  });
  assert.equal(a.body.data.end, '2026-01-06T08:15:00.000Z');
  assert.equal(a.body.data.duration, 900);
  assert.equal(a.body.data.billable, 0);
  const b = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-01-06T09:00:00Z',
    end: null,
    duration: 60,
    billable: true,
  });
  assert.equal(b.body.data.end, '2026-01-06T09:01:00.000Z');
  assert.equal(b.body.data.billable, 1);
  // Both sent: both kept (the duration may be net of breaks).
  const c = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-01-06T10:00:00Z',
    end: '2026-01-06T12:00:00Z',
    duration: 3600,
  });
  assert.equal(c.body.data.duration, 3600);
  assert.equal(c.body.data.end, '2026-01-06T12:00:00.000Z');
  const zero = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-01-06T13:00:00Z',
    end: '2026-01-06T13:00:00Z',
  });
  assert.equal(zero.body.data.duration, 0);
  const offset = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-01-06T16:00:00+02:00',
    end: '2026-01-06T16:30:00.250+02:00',
  });
  assert.equal(offset.body.data.start, '2026-01-06T14:00:00.000Z');
  assert.equal(offset.body.data.end, '2026-01-06T14:30:00.250Z');
  assert.equal(offset.body.data.duration, 1800);
});

test('one running entry per person: 409 TIMER_ALREADY_RUNNING on POST and PATCH', async () => {
  const running = await logTime(t, { task_id: task, person_id: member, start: '2026-02-01T09:00:00Z' });
  assert.equal(running.body.data.end, null);
  assert.equal(running.body.data.duration, null);
  const second = await logTime(t, { task_id: task, person_id: member, start: '2026-02-01T11:00:00Z' }, { status: 409 });
  assert.equal(second.body.error.code, 'TIMER_ALREADY_RUNNING');
  assert.deepEqual(second.body.error.details, { person_id: member, running_entry_id: running.body.data.id });
  // Another person may run a timer at the same time; closed entries are never refused.
  const ownerRunning = await logTime(t, { task_id: task, person_id: owner, start: '2026-02-01T09:00:00Z' });
  const closed = await logTime(t, {
    task_id: task,
    person_id: member,
    start: '2026-02-01T07:00:00Z',
    end: '2026-02-01T08:00:00Z',
  });

  const reopen = await t.request('PATCH', `/time-entries/${closed.body.data.id}`, { body: { end: null } });
  assert.equal(reopen.status, 409, reopen.text);
  assert.equal(reopen.body.error.code, 'TIMER_ALREADY_RUNNING');
  const moveRunning = await t.request('PATCH', `/time-entries/${ownerRunning.body.data.id}`, {
    body: { person_id: member },
  });
  assert.equal(moveRunning.status, 409, moveRunning.text);
  assert.equal(moveRunning.body.error.code, 'TIMER_ALREADY_RUNNING');
  assert.equal((await storedEntry(t, t.tenant, ownerRunning.body.data.id)).person_id, owner);
  assert.equal((await storedEntry(t, t.tenant, closed.body.data.id)).end, '2026-02-01T08:00:00.000Z');

  // Editing the running entry itself is fine; closing it frees the timer.
  const touched = await t.request('PATCH', `/time-entries/${running.body.data.id}`, {
    body: { description: 'still going', start: '2026-02-01T08:30:00Z' },
  });
  assert.equal(touched.status, 200, touched.text);
  assert.equal(touched.body.data.end, null);
  const stop = await t.request('PATCH', `/time-entries/${running.body.data.id}`, {
    body: { end: '2026-02-01T10:00:00Z' },
  });
  assert.equal(stop.status, 200, stop.text);
  assert.equal(stop.body.data.duration, 5400);
  const reopened = await t.request('PATCH', `/time-entries/${closed.body.data.id}`, { body: { end: null } });
  assert.equal(reopened.status, 200, reopened.text);
  assert.equal(reopened.body.data.end, null);
  assert.equal(reopened.body.data.duration, null);
  // Deleting a running entry frees the timer too.
  assert.equal((await t.request('DELETE', `/time-entries/${ownerRunning.body.data.id}`)).status, 204);
  const again = await logTime(t, { task_id: task, person_id: owner, start: '2026-02-01T12:00:00Z' });
  await t.request('DELETE', `/time-entries/${again.body.data.id}`);
  await t.request('DELETE', `/time-entries/${reopened.body.data.id}`);
});

test('concurrent running entries for one person: exactly one succeeds, the database index decides', async () => {
  const results = await Promise.all(
    [0, 1, 2, 3].map((i) =>
      t.request('POST', '/time-entries', {
        body: { task_id: task, person_id: member, start: `2026-02-02T0${i}:00:00Z` },
      }),
    ),
  );
  const statuses = results.map((r) => r.status).sort();
  assert.deepEqual(statuses, [201, 409, 409, 409], results.map((r) => r.text).join('\n'));
  for (const r of results.filter((x) => x.status === 409)) assert.equal(r.body.error.code, 'TIMER_ALREADY_RUNNING');
  const winner = results.find((r) => r.status === 201)!;
  await t.request('DELETE', `/time-entries/${winner.body.data.id}`);
});

test('PATCH with duration only keeps openness; moving start or end re-derives the duration', async () => {
  const running = await logTime(t, { task_id: task, person_id: member, start: '2026-02-03T09:00:00Z' });
  const id = running.body.data.id;
  const withDuration = await t.request('PATCH', `/time-entries/${id}`, { body: { duration: 1200 } });
  assert.equal(withDuration.status, 200, withDuration.text);
  assert.equal(withDuration.body.data.end, null);
  assert.equal(withDuration.body.data.duration, 1200);
  const closed = await t.request('PATCH', `/time-entries/${id}`, { body: { end: '2026-02-03T10:00:00Z' } });
  assert.equal(closed.body.data.duration, 3600);
  const durationOnly = await t.request('PATCH', `/time-entries/${id}`, { body: { duration: 1800 } });
  assert.equal(durationOnly.body.data.end, '2026-02-03T10:00:00.000Z', 'no end is derived');
  assert.equal(durationOnly.body.data.duration, 1800);
  const moved = await t.request('PATCH', `/time-entries/${id}`, { body: { start: '2026-02-03T09:30:00Z' } });
  assert.equal(moved.body.data.duration, 1800);
  assert.equal(moved.body.data.start, '2026-02-03T09:30:00.000Z');
  const both = await t.request('PATCH', `/time-entries/${id}`, { body: { end: '2026-02-03T11:30:00Z', duration: 60 } });
  assert.equal(both.body.data.duration, 60);
  const stored = await storedEntry(t, t.tenant, id);
  assert.equal(stored.end, '2026-02-03T11:30:00.000Z');
  assert.equal(stored.duration, 60);
});

test('end before start: 400 VALIDATION_ERROR with reason INVALID_DATE_RANGE, nothing written', async () => {
  const before = await countEntries(t, t.tenant);
  const res = await logTime(
    t,
    { task_id: task, person_id: owner, start: '2026-03-01T10:00:00Z', end: '2026-03-01T09:59:59Z' },
    { status: 400 },
  );
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  assert.equal(res.body.error.details.reason, 'INVALID_DATE_RANGE');
  assert.equal(await countEntries(t, t.tenant), before);
  const entry = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-03-01T10:00:00Z',
    end: '2026-03-01T11:00:00Z',
  });
  for (const body of [
    { start: '2026-03-01T11:00:01Z' },
    { end: '2026-03-01T09:00:00Z' },
    { start: '2026-03-01T12:00:00Z', end: '2026-03-01T11:00:00Z' },
  ]) {
    const patch = await t.request('PATCH', `/time-entries/${entry.body.data.id}`, { body });
    assert.equal(patch.status, 400, patch.text);
    assert.equal(patch.body.error.details.reason, 'INVALID_DATE_RANGE');
  }
  assert.equal((await storedEntry(t, t.tenant, entry.body.data.id)).start, '2026-03-01T10:00:00.000Z');
});

const badBodies: Array<[string, Record<string, unknown>, string]> = [
  ['missing task_id', { person_id: 1, start: '2026-01-01T00:00:00Z' }, 'task_id'],
  ['missing person_id', { task_id: 1, start: '2026-01-01T00:00:00Z' }, 'person_id'],
  ['missing start', { task_id: 1, person_id: 1 }, 'start'],
  ['date-only start', { task_id: 1, person_id: 1, start: '2026-01-01' }, 'start'],
  ['start in words', { task_id: 1, person_id: 1, start: 'yesterday' }, 'start'],
  ['start as a number', { task_id: 1, person_id: 1, start: 1767225600 }, 'start'],
  ['negative duration', { task_id: 1, person_id: 1, start: '2026-01-01T00:00:00Z', duration: -1 }, 'duration'],
  ['fractional duration', { task_id: 1, person_id: 1, start: '2026-01-01T00:00:00Z', duration: 1.5 }, 'duration'],
  ['billable as text', { task_id: 1, person_id: 1, start: '2026-01-01T00:00:00Z', billable: 'yes' }, 'billable'],
  ['billable 2', { task_id: 1, person_id: 1, start: '2026-01-01T00:00:00Z', billable: 2 }, 'billable'],
  ['task_id as text', { task_id: '1', person_id: 1, start: '2026-01-01T00:00:00Z' }, 'task_id'],
  [
    'description of 10001 characters',
    { task_id: 1, person_id: 1, start: '2026-01-01T00:00:00Z', description: 'x'.repeat(10001) },
    'description',
  ],
  ['read-only task_name', { task_id: 1, person_id: 1, start: '2026-01-01T00:00:00Z', task_name: 'x' }, 'task_name'],
  ['unknown field', { task_id: 1, person_id: 1, start: '2026-01-01T00:00:00Z', minutes: 5 }, 'minutes'],
];

test('invalid bodies answer 400 VALIDATION_ERROR naming the field, and store nothing', async () => {
  const before = await countEntries(t, t.tenant);
  for (const [why, body, field] of badBodies) {
    const res = await t.request('POST', '/time-entries', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
    assert.ok(JSON.stringify(res.body.error.details).includes(field), `${why}: ${res.text}`);
  }
  for (const start of ['2026-02-30T10:00:00', '2026-13-01T10:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T10:60:00Z']) {
    const res = await t.request('POST', '/time-entries', { body: { task_id: task, person_id: owner, start } });
    assert.equal(res.status, 400, `${start}: ${res.text}`);
    assert.deepEqual(res.body.error.details, { reason: 'INVALID_DATE_TIME', field: 'start', value: start });
  }
  assert.equal(await countEntries(t, t.tenant), before);
  const entry = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-03-02T10:00:00Z',
    end: '2026-03-02T11:00:00Z',
  });
  const patchBodies: Array<[string, Record<string, unknown>, string]> = [
    ...badBodies.slice(3).filter(([, , f]) => f !== 'task_id'),
    ['null start', { start: null }, 'start'],
  ];
  for (const [why, body, field] of patchBodies) {
    const { task_id: _t, person_id: _p, ...patch } = body;
    const res = await t.request('PATCH', `/time-entries/${entry.body.data.id}`, { body: patch });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.ok(JSON.stringify(res.body.error.details).includes(field), `${why}: ${res.text}`);
  }
  assert.equal((await storedEntry(t, t.tenant, entry.body.data.id)).updated_at, entry.body.data.updated_at);
});

test('task_id must be a live task of the company: 400 INVALID_TASK; person_id a member: 400 INVALID_PERSON', async () => {
  const other = await t.newTenant();
  const foreignTask = await insertTask(t, other);
  const deletedTask = await insertTask(t, t.tenant, { deleted_at: '2026-01-01T00:00:00Z' });
  const templateTask = await insertTask(t, t.tenant, { template_kind: 'workflow_template' });
  const before = await countEntries(t, t.tenant);
  for (const taskId of [foreignTask, deletedTask, templateTask, 999999]) {
    const res = await logTime(
      t,
      { task_id: taskId, person_id: owner, start: '2026-03-03T10:00:00Z', duration: 60 },
      { status: 400 },
    );
    assert.equal(res.body.error.code, 'INVALID_TASK');
    assert.deepEqual(res.body.error.details, { field: 'task_id', value: taskId });
  }
  for (const personId of [other.ownerPersonId, 999999]) {
    const res = await logTime(
      t,
      { task_id: task, person_id: personId, start: '2026-03-03T10:00:00Z', duration: 60 },
      { status: 400 },
    );
    assert.equal(res.body.error.code, 'INVALID_PERSON');
  }
  assert.equal(await countEntries(t, t.tenant), before);
  const entry = await logTime(t, { task_id: task, person_id: owner, start: '2026-03-03T10:00:00Z', duration: 60 });
  const badTask = await t.request('PATCH', `/time-entries/${entry.body.data.id}`, { body: { task_id: foreignTask } });
  assert.equal(badTask.status, 400, badTask.text);
  assert.equal(badTask.body.error.code, 'INVALID_TASK');
  const badPerson = await t.request('PATCH', `/time-entries/${entry.body.data.id}`, {
    body: { person_id: other.memberPersonId },
  });
  assert.equal(badPerson.body.error.code, 'INVALID_PERSON');
  const stored = await storedEntry(t, t.tenant, entry.body.data.id);
  assert.deepEqual([stored.task_id, stored.person_id], [task, owner]);
  const otherTask = await insertTask(t, t.tenant, { title: 'Other work' });
  const moved = await t.request('PATCH', `/time-entries/${entry.body.data.id}`, {
    body: { task_id: otherTask, person_id: member },
  });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual(
    [moved.body.data.task_id, moved.body.data.task_name, moved.body.data.client_id, moved.body.data.person_id],
    [otherTask, 'Other work', null, member],
  );
});

test("another tenant's entry answers 404 on every route and is not listed", async () => {
  const other = await t.newTenant();
  const foreignTask = await insertTask(t, other);
  const foreign = await logTime(
    t,
    { task_id: foreignTask, person_id: other.ownerPersonId, start: '2026-03-04T10:00:00Z', duration: 60 },
    { tenant: other },
  );
  const id = foreign.body.data.id;
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { description: 'mine now' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/time-entries/${id}`, { body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual((await t.request('GET', `/time-entries?task_id=${foreignTask}`)).body.data, []);
  const stored = await storedEntry(t, other, id);
  assert.deepEqual([stored.description, stored.deleted_at], ['', null]);
});

test('scopes: a read key cannot write', async () => {
  const res = await t.request('POST', '/time-entries', {
    key: 'read',
    body: { task_id: task, person_id: owner, start: '2026-03-05T10:00:00Z' },
  });
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.error.code, 'FORBIDDEN');
});

test('Idempotency-Key on POST /time-entries replays the first answer and writes once', async () => {
  const body = { task_id: task, person_id: owner, start: '2026-03-06T10:00:00Z', duration: 600 };
  const headers = { 'idempotency-key': 'entry-once' };
  const first = await t.request('POST', '/time-entries', { body, headers });
  assert.equal(first.status, 201, first.text);
  const before = await countEntries(t, t.tenant);
  const replay = await t.request('POST', '/time-entries', { body, headers });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(replay.body, first.body);
  assert.equal(await countEntries(t, t.tenant), before);
});
