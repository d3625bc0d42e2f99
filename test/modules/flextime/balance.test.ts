import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();
const HOUR = 3600;

/** Fresh people per test, so the figures of one test never see another's rows. */
async function newMember(tenant: TenantFixture = t.tenant, values: Record<string, unknown> = {}) {
  const person = await t.db.db
    .insertInto('people')
    .values({ company_id: tenant.companyId, name: 'Flex' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db.db
    .insertInto('members')
    .values({ company_id: tenant.companyId, person_id: person.id, ...values })
    .execute();
  return person.id;
}

const insert = (table: string, values: Record<string, unknown>) =>
  t.db.db
    .insertInto(table as never)
    .values(values as never)
    .execute();

function agreement(personId: number, values: Record<string, unknown>, tenant = t.tenant) {
  return insert('agreements', { company_id: tenant.companyId, person_id: personId, ...values });
}

function calendar(personId: number | null, type: string, from: string, until = from, status = 'approved') {
  return insert('calendar_entries', {
    company_id: t.tenant.companyId,
    person_id: personId,
    type,
    status,
    date_from: from,
    date_until: until,
  });
}

async function task(tenant = t.tenant) {
  const row = await t.db.db
    .insertInto('tasks')
    .values({ company_id: tenant.companyId, title: 'Work' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A closed entry through the API (so start/end are read as the API reads them). */
async function work(personId: number, start: string, seconds: number, tenant = t.tenant) {
  const res = await t.request('POST', '/time-entries', {
    tenant,
    body: { task_id: await task(tenant), person_id: personId, start, duration: seconds },
  });
  assert.equal(res.status, 201, res.text);
}

async function balance(query: string, tenant = t.tenant) {
  const res = await t.request('GET', `/flextime/balance?${query}`, { tenant });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  return res.body;
}

async function balanceOf(personId: number, from: string, to: string, tenant = t.tenant) {
  const body = await balance(`person_id=${personId}&date_from=${from}&date_to=${to}`, tenant);
  assert.equal(body.data.length, 1);
  return body.data[0];
}

test('40 h/week, one vacation day, 30 h worked and a +2 h row: expected 32 h, balance 0', async () => {
  const person = await newMember();
  await agreement(person, { date_from: '2026-01-01', weekly_hours: 40, work_days: [1, 2, 3, 4, 5] });
  await calendar(person, 'vacation', '2026-03-04');
  // Mon-Thu of the week of 2 March 2026, 30 h in all (none on the vacation day).
  await work(person, '2026-03-02T08:00:00Z', 8 * HOUR);
  await work(person, '2026-03-03T08:00:00Z', 8 * HOUR);
  await work(person, '2026-03-05T08:00:00Z', 8 * HOUR);
  await work(person, '2026-03-06T08:00:00Z', 6 * HOUR);
  const row = await t.request('POST', '/flextime', { body: { person_id: person, date: '2026-03-05', duration: 7200 } });
  assert.equal(row.status, 201);
  const figures = await balanceOf(person, '2026-03-02', '2026-03-08');
  assert.deepEqual(figures, {
    person_id: person,
    date_from: '2026-03-02',
    date_to: '2026-03-08',
    expected_seconds: 32 * HOUR,
    worked_seconds: 30 * HOUR,
    adjustments_seconds: 2 * HOUR,
    opening_seconds: 0,
    balance_seconds: 0,
    balance_hours: 0,
  });
});

test('only approved vacation, sick leave, time off and holidays reduce expected time; a flextime day does not', async () => {
  const person = await newMember();
  await agreement(person, { date_from: '2026-01-01', weekly_hours: 40, work_days: [1, 2, 3, 4, 5] });
  await calendar(person, 'vacation', '2026-03-09', '2026-03-09', 'in_review'); // Mon, not approved: counts
  await calendar(person, 'sick_leave', '2026-03-10'); // Tue
  await calendar(person, 'time_off', '2026-03-11'); // Wed
  await calendar(person, 'flextime', '2026-03-12'); // Thu: taken from the balance, still expected
  await calendar(null, 'holiday', '2026-03-13'); // Fri: company holiday
  await calendar(person, 'vacation', '2026-03-14', '2026-03-15'); // a weekend: nothing to reduce
  const deleted = await t.db.db
    .insertInto('calendar_entries')
    .values({
      company_id: t.tenant.companyId,
      person_id: person,
      type: 'vacation',
      status: 'approved',
      date_from: '2026-03-09',
      date_until: '2026-03-09',
      deleted_at: new Date().toISOString(),
    })
    .execute();
  assert.ok(deleted);
  const figures = await balanceOf(person, '2026-03-09', '2026-03-15');
  assert.equal(figures.expected_seconds, 2 * 8 * HOUR);
  assert.equal(figures.balance_seconds, -16 * HOUR);
  assert.equal(figures.balance_hours, -16);
  // A global (country-less) public holiday: Christmas Day 2026 is a Friday.
  const christmas = await balanceOf(person, '2026-12-21', '2026-12-27');
  assert.equal(christmas.expected_seconds, 4 * 8 * HOUR);
});

test('agreements: only days inside one count, the latest-starting one wins an overlap, hours spread over work_days', async () => {
  const person = await newMember();
  // 24 h over Mon, Tue, Wed: 8 h each; ends Tuesday 17 March.
  await agreement(person, {
    date_from: '2026-03-01',
    date_until: '2026-03-17',
    weekly_hours: 24,
    work_days: [1, 2, 3],
  });
  // From Wednesday 18 March: 30 h over Mon-Fri (6 h each), overlapping a 40 h one started earlier.
  await agreement(person, { date_from: '2026-03-10', weekly_hours: 40, work_days: [1, 2, 3, 4, 5] });
  await agreement(person, { date_from: '2026-03-18', weekly_hours: 30, work_days: [1, 2, 3, 4, 5] });
  // Week of 16 March: Mon 16 and Tue 17 under the 40 h one (latest start covering them: 10 March), 8 h each;
  // Wed 18 - Fri 20 under the 30 h one, 6 h each.
  const week = await balanceOf(person, '2026-03-16', '2026-03-22');
  assert.equal(week.expected_seconds, (2 * 8 + 3 * 6) * HOUR);
  // Before 10 March only the 24 h agreement: Mon 2, Tue 3, Wed 4 March.
  const early = await balanceOf(person, '2026-03-02', '2026-03-08');
  assert.equal(early.expected_seconds, 3 * 8 * HOUR);
  // 37.5 h over five days is 7.5 h a day; nothing before the first agreement.
  const other = await newMember();
  await agreement(other, { date_from: '2026-03-04', weekly_hours: 37.5, work_days: [1, 2, 3, 4, 5] });
  const partial = await balanceOf(other, '2026-03-02', '2026-03-08');
  assert.equal(partial.expected_seconds, 3 * 7.5 * HOUR);
  const none = await balanceOf(await newMember(), '2026-03-02', '2026-03-08');
  assert.equal(none.expected_seconds, 0);
});

test('worked time: closed entries only, by the local day they start on, across a DST change', async () => {
  const la = await t.newTenant({ timezone: 'America/Los_Angeles', name: 'LA Co' });
  const person = await newMember(la);
  await agreement(person, { date_from: '2026-01-01', weekly_hours: 0, work_days: [1, 2, 3, 4, 5] }, la);
  // 8 March 2026 is the spring-forward day in Los Angeles (UTC-8 before, UTC-7 after).
  await work(person, '2026-03-08T23:30:00', HOUR, la); // local 23:30 on the 8th (06:30Z on the 9th): in
  await work(person, '2026-03-09T00:30:00', 2 * HOUR, la); // local 00:30 on the 9th (07:30Z): out
  await work(person, '2026-03-01T07:30:00Z', 4 * HOUR, la); // local 23:30 on 28 February: out
  await work(person, '2026-03-01T08:00:00Z', 8 * HOUR, la); // local midnight on 1 March: in
  const running = await t.request('POST', '/time-entries', {
    tenant: la,
    body: { task_id: await task(la), person_id: person, start: '2026-03-05T09:00:00' },
  });
  assert.equal(running.status, 201);
  const deleted = await t.request('POST', '/time-entries', {
    tenant: la,
    body: { task_id: await task(la), person_id: person, start: '2026-03-05T12:00:00', duration: 600 },
  });
  assert.equal((await t.request('DELETE', `/time-entries/${deleted.body.data.id}`, { tenant: la })).status, 204);
  const figures = await balanceOf(person, '2026-03-01', '2026-03-08', la);
  assert.equal(figures.worked_seconds, 9 * HOUR);
  const next = await balanceOf(person, '2026-03-09', '2026-03-09', la);
  assert.equal(next.worked_seconds, 2 * HOUR);
  // In UTC the same entries fall on other days: the company's zone decides.
  const utc = await newMember();
  await work(utc, '2026-03-08T23:30:00Z', HOUR);
  assert.equal((await balanceOf(utc, '2026-03-09', '2026-03-09')).worked_seconds, 0);
});

test("the member's flextime_credit (hours) is the opening balance; rows outside the window and deleted rows do not count", async () => {
  const person = await newMember(t.tenant, { flextime_credit: '1.50' });
  await insert('flextime_rows', {
    company_id: t.tenant.companyId,
    person_id: person,
    date: '2026-02-01',
    duration: 600,
  });
  await insert('flextime_rows', {
    company_id: t.tenant.companyId,
    person_id: person,
    date: '2026-01-31',
    duration: 99,
  });
  await insert('flextime_rows', {
    company_id: t.tenant.companyId,
    person_id: person,
    date: '2026-02-02',
    duration: 77,
    deleted_at: new Date().toISOString(),
  });
  const figures = await balanceOf(person, '2026-02-01', '2026-02-28');
  assert.equal(figures.opening_seconds, 5400);
  assert.equal(figures.adjustments_seconds, 600);
  assert.equal(figures.balance_seconds, 6000);
  assert.equal(figures.balance_hours, 1.67);
});

test('without filters: one entry per member, offset paging; default window is this year up to today', async () => {
  const tokyo = await t.newTenant({ timezone: 'Asia/Tokyo', name: 'Tokyo Co' });
  const extra = await newMember(tokyo);
  const body = await balance('limit=2', tokyo);
  const members = [tokyo.ownerPersonId, tokyo.memberPersonId, extra].sort((a, b) => a - b);
  assert.deepEqual(
    body.data.map((x: { person_id: number }) => x.person_id),
    members.slice(0, 2),
  );
  assert.deepEqual(body.meta, { total: 3, limit: 2, offset: 0, has_more: true });
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
  assert.equal(body.data[0].date_to, today);
  assert.equal(body.data[0].date_from, `${today.slice(0, 4)}-01-01`);
  const second = await balance('limit=2&offset=2', tokyo);
  assert.deepEqual(
    second.data.map((x: { person_id: number }) => x.person_id),
    [members[2]],
  );
  const fromOnly = await balance('date_to=2025-06-30', tokyo);
  assert.equal(fromOnly.data[0].date_from, '2025-01-01');
  // Another company's person filters to nothing.
  assert.deepEqual((await balance(`person_id=${t.tenant.memberPersonId}`, tokyo)).data, []);
  assert.equal((await balance(`person_id=${tokyo.memberPersonId}`)).data.length, 0);
});

test('bad windows and filters: 400 for a reversed or too long window, 422 for unparseable values', async () => {
  const reversed = await t.request('GET', '/flextime/balance?date_from=2026-03-02&date_to=2026-03-01');
  assert.equal(reversed.status, 400);
  assert.equal(reversed.body.error.details.reason, 'INVALID_DATE_RANGE');
  const future = await t.request('GET', '/flextime/balance?date_from=2999-01-01');
  assert.equal(future.status, 400);
  assert.equal(future.body.error.details.reason, 'INVALID_DATE_RANGE');
  const long = await t.request('GET', '/flextime/balance?date_from=2000-01-01&date_to=2026-01-01');
  assert.equal(long.status, 400);
  assert.equal(long.body.error.details.reason, 'WINDOW_TOO_LONG');
  const tenYears = await t.request('GET', '/flextime/balance?date_from=2016-01-01&date_to=2025-12-31');
  assert.equal(tenYears.status, 200, tenYears.text);
  for (const query of ['date_from=2026-02-30', 'person_id=x', 'person_id=1e308', 'date_to=a%00b']) {
    const res = await t.request('GET', `/flextime/balance?${query}`);
    assert.equal(res.status, 422, query);
    assert.equal(res.body.error.code, 'INVALID_FILTER_VALUE');
  }
  for (const query of ['sort=person_id', 'cursor=abc', 'limit=201', 'offset=-1']) {
    const res = await t.request('GET', `/flextime/balance?${query}`);
    assert.equal(res.status, 400, query);
  }
});
