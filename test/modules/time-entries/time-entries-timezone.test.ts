import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { insertTask, logTime, storedEntry } from './fixtures.ts';

const t = await createTestApp();
const la = await t.newTenant({ timezone: 'America/Los_Angeles' });
const auckland = await t.newTenant({ timezone: 'Pacific/Auckland' });
const laTask = await insertTask(t, la);
const aklTask = await insertTask(t, auckland);

async function startOf(tenant: TenantFixture, taskId: number, start: string, extra: Record<string, unknown> = {}) {
  const res = await logTime(
    t,
    { task_id: taskId, person_id: tenant.ownerPersonId, start, duration: 60, ...extra },
    { tenant },
  );
  const stored = await storedEntry(t, tenant, res.body.data.id);
  assert.equal(stored.start, res.body.data.start, 'the answer shows what was stored');
  return res.body.data;
}

test('naive times are read in the company timezone across the Los Angeles spring-forward change', async () => {
  assert.equal((await startOf(la, laTask, '2026-03-08T01:30:00')).start, '2026-03-08T09:30:00.000Z'); // PST, UTC-8
  assert.equal((await startOf(la, laTask, '2026-03-08T03:30:00')).start, '2026-03-08T10:30:00.000Z'); // PDT, UTC-7
  // 02:30 does not exist that night: PostgreSQL reads it with the offset in force before the gap (PST), i.e. 03:30 PDT.
  assert.equal((await startOf(la, laTask, '2026-03-08T02:30:00')).start, '2026-03-08T10:30:00.000Z');
  // 01:30 happens twice on the fall-back night: the later (standard-time) occurrence is taken.
  assert.equal((await startOf(la, laTask, '2026-11-01T01:30:00')).start, '2026-11-01T09:30:00.000Z');
  // Seconds are optional; an offset or Z is taken as given whatever the company zone.
  assert.equal((await startOf(la, laTask, '2026-03-08T04:00')).start, '2026-03-08T11:00:00.000Z');
  assert.equal((await startOf(la, laTask, '2026-03-08T01:30:00Z')).start, '2026-03-08T01:30:00.000Z');
  assert.equal((await startOf(la, laTask, '2026-03-08T01:30:00+01:00')).start, '2026-03-08T00:30:00.000Z');
});

test('naive times across the Auckland autumn change (NZDT +13 to NZST +12) and its spring gap', async () => {
  assert.equal((await startOf(auckland, aklTask, '2026-04-05T01:30:00')).start, '2026-04-04T12:30:00.000Z');
  assert.equal((await startOf(auckland, aklTask, '2026-04-05T04:00:00')).start, '2026-04-04T16:00:00.000Z');
  assert.equal((await startOf(auckland, aklTask, '2026-09-27T01:30:00')).start, '2026-09-26T13:30:00.000Z'); // NZST
  assert.equal((await startOf(auckland, aklTask, '2026-09-27T02:30:00')).start, '2026-09-26T14:30:00.000Z'); // gap: = 03:30 NZDT
  assert.equal((await startOf(auckland, aklTask, '2026-09-27T03:30:00')).start, '2026-09-26T14:30:00.000Z'); // NZDT
});

test('a naive end is read the same way, so the duration spans the real elapsed time', async () => {
  const overnight = await logTime(
    t,
    { task_id: laTask, person_id: la.memberPersonId, start: '2026-03-08T01:00:00', end: '2026-03-08T04:00:00' },
    { tenant: la },
  );
  assert.equal(overnight.body.data.start, '2026-03-08T09:00:00.000Z');
  assert.equal(overnight.body.data.end, '2026-03-08T11:00:00.000Z');
  assert.equal(overnight.body.data.duration, 7200, 'three wall-clock hours, two real ones');
  const patched = await t.request('PATCH', `/time-entries/${overnight.body.data.id}`, {
    tenant: la,
    body: { end: '2026-03-08T05:00:00' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.end, '2026-03-08T12:00:00.000Z');
  assert.equal(patched.body.data.duration, 10800);
});

test('naive start_from/start_to filters are read in the company timezone too', async () => {
  const list = async (query: string) => {
    const res = await t.request('GET', `/time-entries?${query}`, { tenant: auckland });
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((e: { start: string }) => e.start);
  };
  // The Auckland day of 5 April 2026 runs from 04-04T11:00Z (NZDT) to 04-05T12:00Z (NZST).
  assert.deepEqual(await list('start_from=2026-04-05T00:00:00&start_to=2026-04-05T23:59:59'), [
    '2026-04-04T12:30:00.000Z',
    '2026-04-04T16:00:00.000Z',
  ]);
  assert.deepEqual(await list('start_from=2026-04-05T02:00:00Z'), [
    '2026-09-26T13:30:00.000Z',
    '2026-09-26T14:30:00.000Z',
    '2026-09-26T14:30:00.000Z',
  ]);
});
