import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { createTask } from './fixtures.ts';

const t = await createTestApp();
const berlin = await t.newTenant({ timezone: 'Europe/Berlin', name: 'Berlin Co' });
const nextYear = new Date().getUTCFullYear() + 1;
const FEBRUARY = `${nextYear}-02-02T09:00:00Z`;
const APRIL = `${nextYear}-04-10T09:00:00Z`;
/** Rules no calendar ever satisfies, with a start that makes them so. */
const NEVER: Array<[string, string]> = [
  ['FREQ=YEARLY;BYMONTH=2;BYDAY=53MO', FEBRUARY],
  ['FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31', APRIL],
  ['FREQ=MONTHLY;INTERVAL=24;BYMONTHDAY=29', FEBRUARY],
  ['FREQ=DAILY;UNTIL=20200101', APRIL],
];

const countTasks = async (companyId = t.tenant.companyId) =>
  (await t.db.db.selectFrom('tasks').select('id').where('company_id', '=', companyId).execute()).length;

test('a rule with no occurrence is 400 INVALID_RECURRENCE_RULE naming the field, and stores nothing', async () => {
  await createTask(t, { title: 'Warm-up', recurrence_rule: { rrule: 'FREQ=YEARLY;BYDAY=53MO', dtstart: FEBRUARY } });
  const before = await countTasks();
  for (const [rrule, dtstart] of NEVER) {
    // How long the bounded search takes is a benchmark's business, not a test's (a loaded machine made it flaky).
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await t.request('POST', '/tasks', { body: { title: 'Never', recurrence_rule: { rrule, dtstart } } });
      assert.equal(res.status, 400, `${rrule}: ${res.text}`);
      assert.equal(res.body.error.code, 'VALIDATION_ERROR');
      assert.equal(res.body.error.details.reason, 'INVALID_RECURRENCE_RULE');
      assert.equal(res.body.error.details.field, 'recurrence_rule');
      assert.match(res.body.error.message, /no occurrence/);
    }
  }
  assert.equal(await countTasks(), before);
});

test('PATCH with a rule that never occurs is refused and leaves the task as it was', async () => {
  const task = await createTask(t, { title: 'Plain' });
  const res = await t.request('PATCH', `/tasks/${task.id}`, {
    body: { recurrence_rule: { rrule: NEVER[1]![0], dtstart: NEVER[1]![1] } },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.details.reason, 'INVALID_RECURRENCE_RULE');
  const row = await t.db.db
    .selectFrom('tasks')
    .select(['is_recurring', 'recurrence_rule'])
    .where('id', '=', task.id)
    .executeTakeFirstOrThrow();
  assert.equal(row.is_recurring, 0);
  assert.equal(row.recurrence_rule, null);
});

test('rare but real rules are accepted: leap days, 31sts from a long month, 53rd Mondays of a year', async () => {
  for (const [rrule, dtstart] of [
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', FEBRUARY],
    ['FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31', `${nextYear}-01-10T09:00:00Z`],
    ['FREQ=YEARLY;BYDAY=53MO', FEBRUARY],
    ['FREQ=MONTHLY;INTERVAL=12;BYDAY=5MO', FEBRUARY],
  ]) {
    const res = await t.request('POST', '/tasks', { body: { title: 'Rare', recurrence_rule: { rrule, dtstart } } });
    assert.equal(res.status, 201, `${rrule}: ${res.text}`);
  }
});

test("the start's month is read on the company's wall clock", async () => {
  // 30 April 23:30 UTC is already 1 May in Berlin: every May has a 31st, no April has.
  const dtstart = `${nextYear}-04-30T23:30:00Z`;
  const body = {
    title: 'Yearly on the 31st',
    recurrence_rule: { rrule: 'FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31', dtstart },
  };
  const inBerlin = await t.request('POST', '/tasks', { body, tenant: berlin });
  assert.equal(inBerlin.status, 201, inBerlin.text);
  const inUtc = await t.request('POST', '/tasks', { body });
  assert.equal(inUtc.status, 400);
  assert.equal(inUtc.body.error.details.reason, 'INVALID_RECURRENCE_RULE');
});
