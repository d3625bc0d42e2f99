import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { createTask } from './fixtures.ts';

const t = await createTestApp();
const nz = await t.newTenant({ timezone: 'Pacific/Auckland', name: 'Kiwi Co' });
const ZONE = 'Pacific/Auckland';
const DAY = 86_400_000;
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

const localDate = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
const localTime = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const weekdayOf = (day: string) => WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()]!;

/** The instant at which clocks in `timeZone` read `day` `time`, found by search and checked with Intl. */
function zoned(day: string, time: string, timeZone: string): string {
  for (let offsetMinutes = -14 * 60; offsetMinutes <= 14 * 60; offsetMinutes += 15) {
    const instant = new Date(Date.parse(`${day}T${time}:00Z`) - offsetMinutes * 60_000);
    if (localDate(instant, timeZone) === day && localTime(instant, timeZone) === time) return instant.toISOString();
  }
  throw new Error(`no instant for ${day} ${time} in ${timeZone}`);
}

const occurrencesOf = (masterId: number, tenant: TenantFixture, live = true) => {
  let query = t.db.db
    .selectFrom('tasks')
    .selectAll()
    .where('company_id', '=', tenant.companyId)
    .where('recurrence_parent_id', '=', masterId);
  if (live) query = query.where('deleted_at', 'is', null);
  return query.orderBy('recurrence_date').execute();
};
const eventsOf = (tenant: TenantFixture, event: string) =>
  t.db.db
    .selectFrom('events')
    .select(['record_id'])
    .where('company_id', '=', tenant.companyId)
    .where('event', '=', event)
    .orderBy('id')
    .execute();

test('occurrences carry the local day in the company timezone, also just after local midnight', async () => {
  const firstDay = localDate(new Date(Date.now() + 2 * DAY), ZONE);
  const dtstart = zoned(firstDay, '00:30', ZONE);
  assert.notEqual(dtstart.slice(0, 10), firstDay, 'the UTC day of 00:30 in Auckland is the day before');
  const rrule = `FREQ=WEEKLY;BYDAY=${weekdayOf(firstDay)}`;
  const master = await createTask(
    t,
    {
      title: 'Weekly sync',
      assignees: [nz.memberPersonId],
      recurrence_rule: { rrule: `rrule:${rrule.toLowerCase()}`, dtstart },
    },
    { tenant: nz },
  );
  assert.equal(master.is_recurring, 1);
  assert.deepEqual(master.recurrence_rule, { rrule, dtstart });
  assert.equal(master.recurrence_date, null);
  assert.equal(master.recurrence_parent_id, null);

  const occurrences = await occurrencesOf(master.id, nz);
  assert.equal(occurrences.length, 5, 'a weekly rule over the 30-day horizon');
  occurrences.forEach((occurrence, week) => {
    const day = addDays(firstDay, 7 * week);
    assert.equal(occurrence.recurrence_date, day);
    assert.equal(occurrence.date, zoned(day, '00:30', ZONE));
    assert.notEqual(
      occurrence.date!.slice(0, 10),
      occurrence.recurrence_date,
      'recurrence_date is the local day, not the UTC day',
    );
    assert.equal(occurrence.is_recurring, 0);
    assert.equal(occurrence.status, 'new');
    assert.equal(occurrence.title, 'Weekly sync');
  });
  const read = await t.request('GET', `/tasks/${occurrences[0]!.id}`, { tenant: nz });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.data.recurrence_parent_id, master.id);
  assert.equal(read.body.data.recurrence_date, firstDay);
  assert.equal(read.body.data.date, dtstart);
  assert.deepEqual(read.body.data.assignees, [nz.memberPersonId]);
  assert.equal(read.body.data.recurrence_rule, null);
  const listed = await t.request('GET', '/tasks?q=Weekly%20sync', { tenant: nz });
  assert.equal(listed.body.meta.total, 6);
  const created = (await eventsOf(nz, 'task.created')).map((e) => e.record_id);
  assert.deepEqual(created, [master.id, ...occurrences.map((o) => o.id)]);
});

test('the local time of day holds across a DST change', async () => {
  const dtstart = zoned('2027-03-30', '08:00', ZONE);
  const master = await createTask(
    t,
    { title: 'Daily standup', recurrence_rule: { rrule: 'FREQ=DAILY;COUNT=10', dtstart } },
    { tenant: nz },
  );
  const occurrences = await occurrencesOf(master.id, nz);
  assert.equal(occurrences.length, 10);
  for (const [index, occurrence] of occurrences.entries()) {
    assert.equal(occurrence.recurrence_date, addDays('2027-03-30', index));
    assert.equal(localTime(new Date(occurrence.date!), ZONE), '08:00');
  }
  assert.equal(occurrences[0]!.date, '2027-03-29T19:00:00.000Z');
  assert.equal(occurrences[9]!.date, '2027-04-07T20:00:00.000Z', 'after daylight time ends the UTC instant moves');
});

test('dtstart defaults to the task date', async () => {
  const date = new Date(Date.now() + DAY).toISOString().replace(/\.\d{3}Z$/, '.000Z');
  const master = await createTask(t, { title: 'Dated', date, recurrence_rule: { rrule: 'FREQ=YEARLY' } });
  assert.deepEqual(master.recurrence_rule, { rrule: 'FREQ=YEARLY', dtstart: date });
  const occurrences = await occurrencesOf(master.id, t.tenant);
  assert.equal(occurrences.length, 1);
  assert.equal(occurrences[0]!.date, date);
  assert.equal(occurrences[0]!.recurrence_date, date.slice(0, 10), 'in a UTC company the local day is the UTC day');
});

test('changing the rule reschedules untouched future occurrences and keeps started ones', async () => {
  const start = addDays(new Date().toISOString().slice(0, 10), 1);
  const master = await createTask(t, {
    title: 'Reschedule',
    recurrence_rule: { rrule: `FREQ=WEEKLY;BYDAY=${weekdayOf(start)}`, dtstart: `${start}T09:00:00Z` },
  });
  const before = await occurrencesOf(master.id, t.tenant);
  assert.equal(before.length, 5);
  const started = before[1]!;
  assert.equal((await t.request('PATCH', `/tasks/${started.id}`, { body: { status: 'in_progress' } })).status, 200);

  const moved = await t.request('PATCH', `/tasks/${master.id}`, {
    body: { recurrence_rule: { rrule: `FREQ=WEEKLY;BYDAY=${weekdayOf(start)}`, dtstart: `${start}T15:00:00Z` } },
  });
  assert.equal(moved.status, 200, moved.text);
  const retimed = await occurrencesOf(master.id, t.tenant);
  assert.deepEqual(
    retimed.map((o) => o.id),
    before.map((o) => o.id),
    'same days keep their rows',
  );
  assert.deepEqual(
    retimed.map((o) => o.date!.slice(11, 16)),
    ['15:00', '09:00', '15:00', '15:00', '15:00'],
  );

  const nextDay = addDays(start, 1);
  const changed = await t.request('PATCH', `/tasks/${master.id}`, {
    body: { recurrence_rule: { rrule: `FREQ=WEEKLY;BYDAY=${weekdayOf(nextDay)}`, dtstart: `${nextDay}T09:00:00Z` } },
  });
  assert.equal(changed.status, 200, changed.text);
  const after = await occurrencesOf(master.id, t.tenant);
  assert.ok(
    after.some((o) => o.id === started.id),
    'a started occurrence is history and stays',
  );
  const fresh = after.filter((o) => o.id !== started.id);
  assert.equal(fresh.length, 5);
  assert.ok(
    fresh.every((o) => weekdayOf(o.recurrence_date!) === weekdayOf(nextDay) && !before.some((b) => b.id === o.id)),
  );
  const deleted = (await eventsOf(t.tenant, 'task.deleted')).map((e) => e.record_id);
  for (const gone of before.filter((o) => o.id !== started.id)) assert.ok(deleted.includes(gone.id));

  const ended = await t.request('PATCH', `/tasks/${master.id}`, { body: { recurrence_rule: null } });
  assert.equal(ended.status, 200);
  assert.equal(ended.body.data.is_recurring, 0);
  assert.equal(ended.body.data.recurrence_rule, null);
  assert.deepEqual(
    (await occurrencesOf(master.id, t.tenant)).map((o) => o.id),
    [started.id],
  );
});

test('deleting a master deletes its untouched future occurrences', async () => {
  const start = addDays(new Date().toISOString().slice(0, 10), 1);
  const master = await createTask(t, {
    title: 'Doomed',
    recurrence_rule: { rrule: 'FREQ=DAILY;COUNT=3', dtstart: `${start}T09:00:00Z` },
  });
  const occurrences = await occurrencesOf(master.id, t.tenant);
  assert.equal(occurrences.length, 3);
  assert.equal((await t.request('POST', `/tasks/${occurrences[2]!.id}/complete`)).status, 200);
  assert.equal((await t.request('DELETE', `/tasks/${master.id}`)).status, 204);
  assert.deepEqual(
    (await occurrencesOf(master.id, t.tenant)).map((o) => o.id),
    [occurrences[2]!.id],
  );
});

test('invalid rules are 400 VALIDATION_ERROR with reason INVALID_RECURRENCE_RULE and store nothing', async () => {
  const count = async () =>
    (await t.db.db.selectFrom('tasks').select('id').where('company_id', '=', t.tenant.companyId).execute()).length;
  const before = await count();
  const rules = [
    'FREQ=HOURLY',
    'BYDAY=MO',
    'FREQ=WEEKLY;BYDAY=XX',
    'FREQ=DAILY;FOO=1',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=DAILY;INTERVAL=0',
    'FREQ=DAILY;COUNT=2;UNTIL=20270101',
    'FREQ=DAILY;BYHOUR=9,17',
    'FREQ=WEEKLY;BYDAY=1MO',
    'FREQ=DAILY;INTERVAL=2;BYDAY=MO',
    'FREQ=DAILY;FREQ=WEEKLY',
    'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY',
    'garbage',
    'FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=1',
  ];
  for (const rrule of rules) {
    const res = await t.request('POST', '/tasks', { body: { title: 'Bad rule', recurrence_rule: { rrule } } });
    assert.equal(res.status, 400, `${rrule}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.reason, 'INVALID_RECURRENCE_RULE', rrule);
  }
  const farStart = await t.request('POST', '/tasks', {
    body: { title: 'x', recurrence_rule: { rrule: 'FREQ=DAILY', dtstart: '2001-01-01T00:00:00Z' } },
  });
  assert.equal(farStart.body.error.details.reason, 'INVALID_RECURRENCE_RULE');
  for (const recurrence_rule of [
    {},
    { rrule: '' },
    { rrule: 'FREQ=DAILY', tz: 'UTC' },
    { rrule: 'FREQ=DAILY', dtstart: 'tomorrow' },
    'FREQ=DAILY',
  ]) {
    const res = await t.request('POST', '/tasks', { body: { title: 'x', recurrence_rule } });
    assert.equal(res.status, 400, JSON.stringify(recurrence_rule));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  assert.equal(await count(), before);
});

test('an occurrence cannot itself recur', async () => {
  const master = await createTask(t, {
    title: 'Series',
    recurrence_rule: { rrule: 'FREQ=DAILY;COUNT=1', dtstart: new Date(Date.now() + DAY).toISOString() },
  });
  const [occurrence] = await occurrencesOf(master.id, t.tenant);
  const refused = await t.request('PATCH', `/tasks/${occurrence!.id}`, {
    body: { recurrence_rule: { rrule: 'FREQ=DAILY' } },
  });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.details.reason, 'INVALID_RECURRENCE_RULE');
  assert.equal(refused.body.error.details.master_id, master.id);
  const noop = await t.request('PATCH', `/tasks/${occurrence!.id}`, { body: { recurrence_rule: null } });
  assert.equal(noop.status, 200);
  assert.equal(noop.body.data.recurrence_parent_id, master.id);
});
