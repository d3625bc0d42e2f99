import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { createTask } from './fixtures.ts';
import { periodicTasks, runPeriodicOnce } from '../../../src/background/periodic.ts';
import { loadModules } from '../../../src/modules/index.ts';
import type { HorizonResult } from '../../../src/modules/tasks/tasks.horizon.ts';
import type { Executor } from '../../../src/db/database.ts';
import { HORIZON_DAYS } from '../../../src/modules/tasks/tasks.recurrence.ts';

const t = await createTestApp();
const ZONE = 'Pacific/Auckland';
const nz = await t.newTenant({ timezone: ZONE });
const DAY = 86_400_000;

/** One round of the periodic work of a server or worker as of `now`; answers what the task horizon reports. */
async function runMaintenance(db: Executor, now: Date): Promise<HorizonResult> {
  const outcomes = await runPeriodicOnce(db, periodicTasks(loadModules()), now);
  return outcomes['task-horizon'] as HorizonResult;
}

/** The wall clock of an instant in a zone, as "YYYY-MM-DD HH:MM". */
function wall(instant: Date | string, timeZone: string): string {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  for (const part of format.formatToParts(new Date(instant))) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
const localDay = (instant: Date, timeZone: string) => wall(instant, timeZone).slice(0, 10);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY).toISOString().slice(0, 10);

const occurrencesOf = (masterId: number, tenant: TenantFixture) =>
  t.db.db
    .selectFrom('tasks')
    .select(['id', 'date', 'recurrence_date', 'title', 'status'])
    .where('company_id', '=', tenant.companyId)
    .where('recurrence_parent_id', '=', masterId)
    .where('deleted_at', 'is', null)
    .orderBy('recurrence_date')
    .execute();
const createdEvents = (tenant: TenantFixture) =>
  t.db.db
    .selectFrom('events')
    .select(['record_id', 'api_key_id', 'person_id', 'data'])
    .where('company_id', '=', tenant.companyId)
    .where('event', '=', 'task.created')
    .orderBy('id')
    .execute();

test('as time passes, one maintenance run extends a series to the horizon on local days; a second run creates nothing', async () => {
  // 07:00 in Auckland is the evening before in UTC, so the local day and the UTC day of each occurrence differ.
  const dtstart = new Date(Date.now() - DAY).toISOString();
  const master = await createTask(
    t,
    {
      title: 'Daily check',
      assignees: [nz.memberPersonId],
      recurrence_rule: { rrule: 'FREQ=DAILY;BYHOUR=7;BYMINUTE=0;BYSECOND=0', dtstart },
    },
    { tenant: nz },
  );
  const before = await occurrencesOf(master.id, nz);
  assert.ok(before.length >= HORIZON_DAYS - 1);
  const eventsBefore = (await createdEvents(nz)).length;

  const later = new Date(Date.now() + 10 * DAY);
  const first = await runMaintenance(t.db.db, later);
  const after = await occurrencesOf(master.id, nz);
  const fresh = after.filter((o) => !before.some((b) => b.id === o.id));
  assert.ok(fresh.length >= 9 && fresh.length <= 11, `about ten days were missing, got ${fresh.length}`);
  assert.ok(first.created >= fresh.length);
  assert.equal(first.failed, 0);
  // One occurrence per local day, no gaps, each at 07:00 local on its recurrence_date, up to the horizon.
  for (let i = 1; i < after.length; i++)
    assert.equal(after[i]!.recurrence_date, nextDay(after[i - 1]!.recurrence_date!));
  for (const o of after) {
    assert.equal(wall(o.date!, ZONE), `${o.recurrence_date} 07:00`);
    assert.notEqual(o.date!.slice(0, 10), o.recurrence_date, 'recurrence_date is the local day, not the UTC day');
  }
  assert.ok(fresh.every((o) => o.recurrence_date! > before.at(-1)!.recurrence_date!));
  const last = after.at(-1)!.recurrence_date!;
  assert.ok(
    last >= localDay(new Date(later.getTime() + (HORIZON_DAYS - 1) * DAY), ZONE) &&
      last <= localDay(new Date(later.getTime() + HORIZON_DAYS * DAY), ZONE),
  );
  assert.ok(fresh.every((o) => o.title === 'Daily check' && o.status === 'new'));
  const assignees = await t.db.db
    .selectFrom('task_assignees')
    .select('task_id')
    .where('company_id', '=', nz.companyId)
    .where(
      'task_id',
      'in',
      fresh.map((o) => o.id),
    )
    .execute();
  assert.equal(assignees.length, fresh.length, "occurrences take the master's assignees");

  const events = (await createdEvents(nz)).slice(eventsBefore);
  assert.deepEqual(
    events.map((e) => e.record_id).sort((a, b) => a - b),
    fresh.map((o) => o.id).sort((a, b) => a - b),
  );
  assert.ok(
    events.every((e) => e.api_key_id === null && e.person_id === null),
    'the service, not a key, made them',
  );
  assert.equal((events[0]!.data as { recurrence_parent_id: number }).recurrence_parent_id, master.id);

  const second = await runMaintenance(t.db.db, later);
  assert.equal(second.created, 0);
  assert.equal((await occurrencesOf(master.id, nz)).length, after.length);
  assert.equal((await createdEvents(nz)).length, eventsBefore + events.length);
});

test('ended, deleted and non-recurring tasks are left alone', async () => {
  const dtstart = new Date(Date.now() - DAY).toISOString();
  const rule = { rrule: 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0', dtstart };
  const deleted = await createTask(t, { title: 'Deleted series', recurrence_rule: rule });
  assert.equal((await t.request('DELETE', `/tasks/${deleted.id}`)).status, 204);
  const ended = await createTask(t, { title: 'Ended series', recurrence_rule: rule });
  const patched = await t.request('PATCH', `/tasks/${ended.id}`, { body: { recurrence_rule: null } });
  assert.equal(patched.status, 200, patched.text);
  const plain = await createTask(t, { title: 'Plain task' });
  const counts = async () =>
    Promise.all([deleted.id, ended.id, plain.id].map(async (id) => (await occurrencesOf(id, t.tenant)).length));
  const before = await counts();

  await runMaintenance(t.db.db, new Date(Date.now() + 10 * DAY));
  assert.deepEqual(await counts(), before);
  assert.deepEqual(before.slice(0, 1).concat(before.slice(2)), [0, 0]);
});
