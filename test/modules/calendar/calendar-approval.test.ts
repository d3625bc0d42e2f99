import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

// The approval rule (vacation and flextime are approved only in the web application) and read-only holidays.

const t = await createTestApp();
const { memberPersonId: member } = t.tenant;

async function createEntry(
  body: Record<string, unknown>,
  options: { tenant?: TenantFixture; key?: 'admin' | 'personal' } = {},
): Promise<number> {
  const res = await t.request('POST', '/calendar', { body, ...options });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const storedEntry = (id: number, companyId = t.tenant.companyId) =>
  t.db.db
    .selectFrom('calendar_entries')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();

const countEntries = async () =>
  (
    await t.db.db
      .selectFrom('calendar_entries')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

/** Approval happens only in the web application; tests stand in for it by writing the row. */
const approve = (id: number) =>
  t.db.db.updateTable('calendar_entries').set({ status: 'approved' }).where('id', '=', id).execute();

async function insertHoliday(tenant: TenantFixture, date: string, description = 'Company day off'): Promise<number> {
  const row = await t.db.db
    .insertInto('calendar_entries')
    .values({
      company_id: tenant.companyId,
      type: 'holiday',
      person_id: null,
      status: 'approved',
      date_from: date,
      date_until: date,
      description,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const globalHolidays = () => t.db.db.selectFrom('global_holidays').selectAll().orderBy('date').orderBy('id').execute();

test('create asking for approved: 409 CALENDAR_APPROVAL_UI_ONLY on vacation and flextime, 400 on the other types', async () => {
  const before = await countEntries();
  for (const type of ['vacation', 'flextime']) {
    const res = await t.request('POST', '/calendar', {
      body: { type, person_id: member, date_from: '2026-04-01', status: 'approved' },
    });
    assert.equal(res.status, 409, `${type}: ${res.text}`);
    assert.equal(res.body.error.code, 'CALENDAR_APPROVAL_UI_ONLY');
  }
  for (const type of ['sick_leave', 'time_off']) {
    const res = await t.request('POST', '/calendar', {
      body: { type, person_id: member, date_from: '2026-04-01', status: 'approved' },
    });
    assert.equal(res.status, 400, `${type}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.reason, 'CREATED_IN_REVIEW');
  }
  assert.equal(await countEntries(), before);
});

test('approved vacation and flextime: setting, unsetting, type-flipping and deleting answer 409 and change nothing', async () => {
  for (const type of ['vacation', 'flextime']) {
    const id = await createEntry({ type, person_id: member, date_from: '2026-05-04', date_until: '2026-05-08' });
    const setting = await t.request('PATCH', `/calendar/${id}`, { body: { status: 'approved' } });
    assert.equal(setting.status, 409, setting.text);
    assert.equal(setting.body.error.code, 'CALENDAR_APPROVAL_UI_ONLY');
    assert.equal((await storedEntry(id))?.status, 'in_review');

    await approve(id);
    const before = await storedEntry(id);
    const refusals: Array<[string, Record<string, unknown> | undefined]> = [
      ['unset', { status: 'in_review' }],
      ['flip to sick_leave', { type: 'sick_leave' }],
      ['flip to the other approval type', { type: type === 'vacation' ? 'flextime' : 'vacation' }],
      ['flip and unset', { type: 'time_off', status: 'in_review' }],
    ];
    for (const [why, body] of refusals) {
      const res = await t.request('PATCH', `/calendar/${id}`, { body });
      assert.equal(res.status, 409, `${type} ${why}: ${res.text}`);
      assert.equal(res.body.error.code, 'CALENDAR_APPROVAL_UI_ONLY');
      assert.equal(res.headers.get('x-api-preview'), 'true');
    }
    const del = await t.request('DELETE', `/calendar/${id}`);
    assert.equal(del.status, 409, del.text);
    assert.equal(del.body.error.code, 'CALENDAR_APPROVAL_UI_ONLY');
    assert.deepEqual(await storedEntry(id), before);

    // Writes that neither set, unset nor flip the approval go through.
    const same = await t.request('PATCH', `/calendar/${id}`, {
      body: { status: 'approved', type, description: 'Booked' },
    });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.data.status, 'approved');
    assert.equal(same.body.data.description, 'Booked');
  }
  // Flipping an in_review entry to vacation and approving it in one write is still an approval.
  const sick = await createEntry({ type: 'sick_leave', person_id: member, date_from: '2026-05-11' });
  const sneaky = await t.request('PATCH', `/calendar/${sick}`, { body: { type: 'vacation', status: 'approved' } });
  assert.equal(sneaky.status, 409);
  assert.equal(sneaky.body.error.code, 'CALENDAR_APPROVAL_UI_ONLY');
});

test('sick_leave and time_off are unaffected by the approval rule: status set and unset through PATCH', async () => {
  for (const type of ['sick_leave', 'time_off']) {
    const id = await createEntry({ type, person_id: member, date_from: '2026-06-01' });
    const approved = await t.request('PATCH', `/calendar/${id}`, { body: { status: 'approved' } });
    assert.equal(approved.status, 200, approved.text);
    assert.equal(approved.body.data.status, 'approved');
    assert.equal((await storedEntry(id))?.status, 'approved');
    const flipped = await t.request('PATCH', `/calendar/${id}`, {
      body: { type: type === 'sick_leave' ? 'time_off' : 'sick_leave' },
    });
    assert.equal(flipped.status, 200, flipped.text);
    // Becoming an approved vacation would be an approval made outside the web application.
    const toVacation = await t.request('PATCH', `/calendar/${id}`, { body: { type: 'vacation' } });
    assert.equal(toVacation.status, 409);
    assert.equal(toVacation.body.error.code, 'CALENDAR_APPROVAL_UI_ONLY');
    const unset = await t.request('PATCH', `/calendar/${id}`, { body: { status: 'in_review' } });
    assert.equal(unset.status, 200, unset.text);
    assert.equal(unset.body.data.status, 'in_review');
    await approve(id);
    assert.equal((await t.request('DELETE', `/calendar/${id}`)).status, 204);
  }
});

test('holidays are read-only: 403 READ_ONLY on create, update, delete and on a flip to holiday', async () => {
  const before = await countEntries();
  const create = await t.request('POST', '/calendar', {
    body: { type: 'holiday', person_id: member, date_from: '2026-08-01' },
  });
  assert.equal(create.status, 403, create.text);
  assert.equal(create.body.error.code, 'READ_ONLY');
  assert.equal(create.headers.get('x-api-preview'), 'true');
  assert.equal(await countEntries(), before);

  const holiday = await insertHoliday(t.tenant, '2026-08-20');
  const stored = await storedEntry(holiday);
  const read = await t.request('GET', `/calendar/${holiday}`, { key: 'read' });
  assert.equal(read.status, 200);
  assert.equal(read.body.data.type, 'holiday');
  assert.equal(read.body.data.person_id, null);
  for (const [method, body] of [
    ['PATCH', { description: 'Renamed' }],
    ['PATCH', { type: 'vacation' }],
    ['PATCH', {}],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/calendar/${holiday}`, { body });
    assert.equal(res.status, 403, `${method} ${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.code, 'READ_ONLY');
  }
  assert.deepEqual(await storedEntry(holiday), stored);

  const vacation = await createEntry({ type: 'vacation', person_id: member, date_from: '2026-08-03' });
  const flip = await t.request('PATCH', `/calendar/${vacation}`, { body: { type: 'holiday' } });
  assert.equal(flip.status, 403);
  assert.equal(flip.body.error.code, 'READ_ONLY');
  assert.equal((await storedEntry(vacation))?.type, 'vacation');
});

test('global public holidays: negative ids, readable, never writable', async () => {
  const [first] = await globalHolidays();
  assert.ok(first);
  const res = await t.request('GET', `/calendar/${-first.id}`, { key: 'read' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    { ...res.body.data, created_at: '', updated_at: '' },
    {
      id: -first.id,
      type: 'holiday',
      person_id: null,
      status: 'approved',
      date_from: first.date,
      date_until: first.date,
      description: first.name,
      created_at: '',
      updated_at: '',
    },
  );
  for (const [method, body] of [
    ['PATCH', { description: 'x' }],
    ['DELETE', undefined],
  ] as const) {
    const write = await t.request(method, `/calendar/${-first.id}`, { body });
    assert.equal(write.status, 403, `${method}: ${write.text}`);
    assert.equal(write.body.error.code, 'READ_ONLY');
  }
  for (const id of [0, -99999]) {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { description: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const missing = await t.request(method, `/calendar/${id}`, { body });
      assert.equal(missing.status, 404, `${method} ${id}: ${missing.text}`);
      assert.equal(missing.body.error.code, 'NOT_FOUND');
    }
  }
  assert.equal((await t.request('GET', '/calendar/abc')).body.error.code, 'VALIDATION_ERROR');
});
