import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { insertTask, logTime, storedEntry } from './fixtures.ts';

const t = await createTestApp();
const owner = t.tenant.ownerPersonId;
const member = t.tenant.memberPersonId;
const task = await insertTask(t, t.tenant);

test('an entry overlapping another of the same person is written, with a TIME_ENTRY_OVERLAP warning', async () => {
  const a = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-04-01T09:00:00Z',
    end: '2026-04-01T10:00:00Z',
  });
  const b = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-04-01T09:30:00Z',
    end: '2026-04-01T11:00:00Z',
  });
  assert.deepEqual(b.body.warnings, [
    {
      code: 'TIME_ENTRY_OVERLAP',
      message: `The entry overlaps other entries of the same person: ${a.body.data.id}`,
      details: { overlapping_ids: [a.body.data.id] },
    },
  ]);
  assert.equal((await storedEntry(t, t.tenant, b.body.data.id)).start, '2026-04-01T09:30:00.000Z');
  // Inside both: both named, in id order.
  const c = await logTime(t, { task_id: task, person_id: owner, start: '2026-04-01T09:45:00Z', duration: 60 });
  assert.deepEqual(c.body.warnings[0].details, { overlapping_ids: [a.body.data.id, b.body.data.id] });
  // Touching is not overlapping; another person's time never overlaps; deleted entries are ignored.
  const touching = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-04-01T11:00:00Z',
    end: '2026-04-01T12:00:00Z',
  });
  assert.equal(touching.body.warnings, undefined);
  const otherPerson = await logTime(t, {
    task_id: task,
    person_id: member,
    start: '2026-04-01T09:00:00Z',
    end: '2026-04-01T10:00:00Z',
  });
  assert.equal(otherPerson.body.warnings, undefined);
  await t.request('DELETE', `/time-entries/${touching.body.data.id}`);
  const overDeleted = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-04-01T11:15:00Z',
    end: '2026-04-01T11:45:00Z',
  });
  assert.equal(overDeleted.body.warnings, undefined);
});

test('a running entry extends without end: later entries overlap it; PATCH reports overlaps too', async () => {
  const running = await logTime(t, { task_id: task, person_id: member, start: '2026-04-02T09:00:00Z' });
  const later = await logTime(t, { task_id: task, person_id: member, start: '2026-04-09T09:00:00Z', duration: 600 });
  assert.deepEqual(later.body.warnings[0].details, { overlapping_ids: [running.body.data.id] });
  const earlier = await logTime(t, {
    task_id: task,
    person_id: member,
    start: '2026-04-02T08:00:00Z',
    end: '2026-04-02T09:00:00Z',
  });
  assert.equal(earlier.body.warnings, undefined);
  const patched = await t.request('PATCH', `/time-entries/${earlier.body.data.id}`, {
    body: { end: '2026-04-02T09:10:00Z' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual(patched.body.warnings, [
    {
      code: 'TIME_ENTRY_OVERLAP',
      message: `The entry overlaps other entries of the same person: ${running.body.data.id}`,
      details: { overlapping_ids: [running.body.data.id] },
    },
  ]);
  assert.equal((await storedEntry(t, t.tenant, earlier.body.data.id)).end, '2026-04-02T09:10:00.000Z');
  const back = await t.request('PATCH', `/time-entries/${earlier.body.data.id}`, {
    body: { end: '2026-04-02T09:00:00Z' },
  });
  assert.equal(back.body.warnings, undefined);
  await t.request('PATCH', `/time-entries/${running.body.data.id}`, { body: { end: '2026-04-02T17:00:00Z' } });
});

/** Waits until some backend of the test database is blocked on a lock (the request under test). */
async function waitForLockWait(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await t.db.pool.query(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the request never waited on the lock');
}

test('a running entry committed by a racing writer after the checks still gives 409 TIMER_ALREADY_RUNNING', async () => {
  const racer = await t.db.pool.connect();
  try {
    await racer.query('begin');
    const { rows } = await racer.query(
      `insert into time_entries (company_id, task_id, person_id, start) values ($1, $2, $3, '2026-04-03T09:00:00Z') returning id`,
      [t.tenant.companyId, task, owner],
    );
    const pending = t.request('POST', '/time-entries', {
      body: { task_id: task, person_id: owner, start: '2026-04-03T10:00:00Z' },
    });
    await waitForLockWait();
    await racer.query('commit');
    const res = await pending;
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.error.code, 'TIMER_ALREADY_RUNNING');
    assert.deepEqual(res.body.error.details, { person_id: owner });

    const closed = await logTime(t, {
      task_id: task,
      person_id: member,
      start: '2026-04-03T07:00:00Z',
      end: '2026-04-03T08:00:00Z',
    });
    await racer.query('begin');
    await racer.query(
      `insert into time_entries (company_id, task_id, person_id, start) values ($1, $2, $3, '2026-04-03T09:00:00Z')`,
      [t.tenant.companyId, task, member],
    );
    const reopen = t.request('PATCH', `/time-entries/${closed.body.data.id}`, { body: { end: null } });
    await waitForLockWait();
    await racer.query('commit');
    const patched = await reopen;
    assert.equal(patched.status, 409, patched.text);
    assert.equal(patched.body.error.code, 'TIMER_ALREADY_RUNNING');
    assert.equal((await storedEntry(t, t.tenant, closed.body.data.id)).end, '2026-04-03T08:00:00.000Z');
    await racer.query(
      `update time_entries set deleted_at = now() where company_id = $1 and ("end" is null or id = $2)`,
      [t.tenant.companyId, rows[0].id],
    );

    // In a bulk, the refusal names the request's running entry for the person the database refused.
    await racer.query('begin');
    await racer.query(
      `insert into time_entries (company_id, task_id, person_id, start) values ($1, $2, $3, '2026-04-04T09:00:00Z')`,
      [t.tenant.companyId, task, member],
    );
    const bulk = t.request('POST', '/time-entries/bulk', {
      body: {
        entries: [
          { task_id: task, person_id: owner, start: '2026-04-04T08:00:00Z', duration: 60 },
          { task_id: task, person_id: member, start: '2026-04-04T08:00:00Z', duration: 60 },
          { task_id: task, person_id: member, start: '2026-04-04T10:00:00Z' },
        ],
      },
    });
    await waitForLockWait();
    await racer.query('commit');
    const refused = await bulk;
    assert.equal(refused.status, 409, refused.text);
    assert.deepEqual(refused.body.error.details, { person_id: member, index: 2 });
  } finally {
    racer.release();
  }
});

test('the legacy X-Service-Warning header carries the same warnings, also on an idempotent replay; none without warnings', async () => {
  const first = await logTime(t, {
    task_id: task,
    person_id: owner,
    start: '2026-05-01T09:00:00Z',
    end: '2026-05-01T10:00:00Z',
  });
  assert.equal(first.headers.get('x-service-warning'), null);
  const body = { task_id: task, person_id: owner, start: '2026-05-01T09:30:00Z', end: '2026-05-01T10:30:00Z' };
  const headers = { 'idempotency-key': 'legacy-warning-header' };
  const overlapping = await t.request('POST', '/time-entries', { body, headers });
  assert.equal(overlapping.status, 201);
  assert.deepEqual(JSON.parse(overlapping.headers.get('x-service-warning')!), overlapping.body.warnings);
  const replay = await t.request('POST', '/time-entries', { body, headers });
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.equal(replay.headers.get('x-service-warning'), overlapping.headers.get('x-service-warning'));
  const bulk = await t.request('POST', '/time-entries/bulk', {
    body: { entries: [{ ...body, start: '2026-05-01T09:40:00Z', end: '2026-05-01T09:50:00Z' }] },
  });
  assert.equal(bulk.status, 201, bulk.text);
  assert.deepEqual(JSON.parse(bulk.headers.get('x-service-warning')!), bulk.body.warnings);
  assert.equal(bulk.body.warnings[0].index, 0);
});
