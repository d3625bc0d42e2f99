import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { countEntries, countEvents, insertTask, logTime } from './fixtures.ts';

const t = await createTestApp();
const owner = t.tenant.ownerPersonId;
const member = t.tenant.memberPersonId;
const task = await insertTask(t, t.tenant, { title: 'Bulk work' });

/** n closed, non-overlapping entries of one person, an hour apart. */
const entries = (n: number, day = '2026-07-01', personId = owner) =>
  Array.from({ length: n }, (_, i) => ({
    task_id: task,
    person_id: personId,
    start: new Date(Date.parse(`${day}T00:00:00Z`) + i * 3600_000).toISOString(),
    duration: 1800,
  }));

const bulk = (list: unknown[], headers?: Record<string, string>) =>
  t.request('POST', '/time-entries/bulk', { body: { entries: list }, headers });

async function assertNothingWritten(run: () => Promise<void>): Promise<void> {
  const [rows, events] = [await countEntries(t, t.tenant), await countEvents(t, t.tenant)];
  await run();
  assert.equal(await countEntries(t, t.tenant), rows, 'no row written');
  assert.equal(await countEvents(t, t.tenant), events, 'no event recorded');
}

test('a bulk writes every entry, answers them in request order, and records one event per row', async () => {
  const events = await countEvents(t, t.tenant);
  const list = [
    {
      task_id: task,
      person_id: member,
      start: '2026-07-01T09:00:00Z',
      end: '2026-07-01T10:00:00Z',
      billable: false,
      description: 'a',
    },
    { task_id: task, person_id: owner, start: '2026-07-01T09:00:00Z', duration: 600 },
    { task_id: task, person_id: member, start: '2026-07-01T08:00:00Z', end: '2026-07-01T08:30:00Z' },
  ];
  const res = await bulk(list);
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.warnings, undefined);
  const data = res.body.data;
  assert.deepEqual(
    data.map((e: { person_id: number; start: string }) => [e.person_id, e.start]),
    [
      [member, '2026-07-01T09:00:00.000Z'],
      [owner, '2026-07-01T09:00:00.000Z'],
      [member, '2026-07-01T08:00:00.000Z'],
    ],
  );
  assert.deepEqual(
    data.map((e: { duration: number; billable: number }) => [e.duration, e.billable]),
    [
      [3600, 0],
      [600, 1],
      [1800, 1],
    ],
  );
  assert.equal(data[0].task_name, 'Bulk work');
  assert.equal(await countEvents(t, t.tenant), events + 3);
  const recorded = await t.db.db
    .selectFrom('events')
    .select('record_id')
    .where('company_id', '=', t.tenant.companyId)
    .where(
      'record_id',
      'in',
      data.map((e: { id: number }) => e.id),
    )
    .where('event', '=', 'time_entry.created')
    .execute();
  assert.equal(recorded.length, 3);
  for (const entry of data) assert.deepEqual((await t.request('GET', `/time-entries/${entry.id}`)).body.data, entry);
});

test('overlap warnings consider the other entries of the request and come in one flat list with their index', async () => {
  const existing = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-07-02T09:00:00Z',
    end: '2026-07-02T10:00:00Z',
  });
  const res = await bulk([
    { task_id: task, person_id: owner, start: '2026-07-02T12:00:00Z', end: '2026-07-02T13:00:00Z' },
    { task_id: task, person_id: owner, start: '2026-07-02T09:30:00Z', duration: 600 },
    { task_id: task, person_id: member, start: '2026-07-02T12:00:00Z', end: '2026-07-02T13:00:00Z' },
    { task_id: task, person_id: owner, start: '2026-07-02T12:30:00Z', end: '2026-07-02T14:00:00Z' },
  ]);
  assert.equal(res.status, 201, res.text);
  const [first, second, , fourth] = res.body.data.map((e: { id: number }) => e.id);
  assert.deepEqual(
    res.body.warnings.map((w: { index: number; code: string; details: unknown }) => [w.index, w.code, w.details]),
    [
      [0, 'TIME_ENTRY_OVERLAP', { overlapping_ids: [fourth] }],
      [1, 'TIME_ENTRY_OVERLAP', { overlapping_ids: [existing.body.data.id] }],
      [3, 'TIME_ENTRY_OVERLAP', { overlapping_ids: [first] }],
    ],
  );
  assert.ok(second);
});

test('two running entries for one person in one bulk: 409 TIMER_ALREADY_RUNNING naming the second', async () => {
  await assertNothingWritten(async () => {
    const res = await bulk([
      { task_id: task, person_id: member, start: '2026-07-03T09:00:00Z' },
      { task_id: task, person_id: owner, start: '2026-07-03T09:00:00Z' },
      { task_id: task, person_id: member, start: '2026-07-03T11:00:00Z', duration: 60 },
      { task_id: task, person_id: member, start: '2026-07-03T12:00:00Z' },
    ]);
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.error.code, 'TIMER_ALREADY_RUNNING');
    assert.equal(res.body.error.details.index, 3);
    assert.equal(res.body.error.details.person_id, member);
  });
  const running = await logTime(t, { task_id: task, person_id: owner, start: '2026-07-03T08:00:00Z' });
  await assertNothingWritten(async () => {
    const res = await bulk([
      ...entries(2, '2026-07-04'),
      { task_id: task, person_id: owner, start: '2026-07-04T12:00:00Z' },
    ]);
    assert.equal(res.status, 409, res.text);
    assert.deepEqual(res.body.error.details, { person_id: owner, running_entry_id: running.body.data.id, index: 2 });
  });
  await t.request('DELETE', `/time-entries/${running.body.data.id}`);
});

test('a bulk of 201 entries, or of none, is refused with 400 VALIDATION_ERROR', async () => {
  await assertNothingWritten(async () => {
    for (const list of [entries(201), []]) {
      const res = await bulk(list);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error.code, 'VALIDATION_ERROR');
      assert.equal(res.body.error.details.index, undefined);
      assert.equal(res.body.error.details.errors[0].field, 'entries');
    }
    for (const body of [{}, { entries: entries(1), extra: 1 }, { entries: 'all' }]) {
      const res = await t.request('POST', '/time-entries/bulk', { body });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    }
  });
});

test('a bulk whose 150th entry is invalid writes nothing and names index 149', async () => {
  const other = await t.newTenant();
  const foreignTask = await insertTask(t, other);
  const cases: Array<[string, Record<string, unknown>, number, string, string | undefined]> = [
    ['schema: unknown field', { note: 'x' }, 400, 'VALIDATION_ERROR', undefined],
    ['schema: bad start', { start: 'soon' }, 400, 'VALIDATION_ERROR', undefined],
    ['calendar: Feb 30', { start: '2026-02-30T09:00:00' }, 400, 'VALIDATION_ERROR', 'INVALID_DATE_TIME'],
    [
      'end before start',
      { start: '2026-07-05T10:00:00Z', end: '2026-07-05T09:00:00Z', duration: undefined },
      400,
      'VALIDATION_ERROR',
      'INVALID_DATE_RANGE',
    ],
    ["another tenant's task", { task_id: foreignTask }, 400, 'INVALID_TASK', undefined],
    ["another tenant's person", { person_id: other.ownerPersonId }, 400, 'INVALID_PERSON', undefined],
  ];
  for (const [why, change, status, code, reason] of cases) {
    await assertNothingWritten(async () => {
      const list: Array<Record<string, unknown>> = entries(200, '2026-07-05');
      list[149] = JSON.parse(JSON.stringify({ ...list[149], ...change }));
      const res = await bulk(list);
      assert.equal(res.status, status, `${why}: ${res.text}`);
      assert.equal(res.body.error.code, code, why);
      assert.equal(res.body.error.details.index, 149, `${why}: ${res.text}`);
      if (reason) assert.equal(res.body.error.details.reason, reason, why);
      assert.match(res.body.error.message, /149/, why);
    });
  }
});

test('the first refused entry in request order is the one named, whatever the rule it breaks', async () => {
  await assertNothingWritten(async () => {
    const list: Array<Record<string, unknown>> = entries(10, '2026-07-06');
    list[7] = { ...list[7], start: '2026-07-06T10:00:00Z', end: '2026-07-06T09:00:00Z', duration: undefined };
    list[4] = { ...list[4], task_id: 999999 };
    const res = await bulk(JSON.parse(JSON.stringify(list)));
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'INVALID_TASK');
    assert.deepEqual(res.body.error.details, { field: 'task_id', value: 999999, index: 4 });
  });
});

test('200 entries are written with a handful of queries', async () => {
  const events = await countEvents(t, t.tenant);
  const list = entries(200, '2026-08-01', member);
  const started = performance.now();
  const res = await bulk(list);
  const elapsed = performance.now() - started;
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.length, 200);
  assert.deepEqual(
    res.body.data.map((e: { start: string }) => e.start),
    list.map((e) => e.start),
  );
  assert.equal(await countEvents(t, t.tenant), events + 200);
  console.log(`bulk of 200 answered in ${elapsed.toFixed(0)} ms`);
  // A generous ceiling for a shared test machine; the point is no per-row round trips.
  assert.ok(elapsed < 2000, `took ${elapsed} ms`);
});

test('the bulk call is idempotent with an Idempotency-Key: a retry replays and writes nothing', async () => {
  const list = entries(3, '2026-09-01');
  const headers = { 'idempotency-key': 'bulk-retry-1' };
  const first = await bulk(list, headers);
  assert.equal(first.status, 201, first.text);
  await assertNothingWritten(async () => {
    const replay = await bulk(list, headers);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotency-replayed'), 'true');
    assert.deepEqual(replay.body, first.body);
  });
  const reused = await bulk(entries(2, '2026-09-02'), headers);
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});
