import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();
const { ownerPersonId: owner, memberPersonId: member } = t.tenant;

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
const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((e) => e.id);

test('create, read, list, update and delete a calendar entry; created in_review; X-Api-Preview on every answer', async () => {
  const created = await t.request('POST', '/calendar', {
    key: 'write',
    body: {
      type: 'vacation',
      person_id: member,
      date_from: '2026-07-01',
      date_until: '2026-07-10',
      description: 'Summer',
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const entry = created.body.data;
  assert.deepEqual(Object.keys(entry).sort(), [
    'created_at',
    'date_from',
    'date_until',
    'description',
    'id',
    'person_id',
    'status',
    'type',
    'updated_at',
  ]);
  assert.deepEqual(
    { ...entry, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      type: 'vacation',
      person_id: member,
      status: 'in_review',
      date_from: '2026-07-01',
      date_until: '2026-07-10',
      description: 'Summer',
      created_at: '',
      updated_at: '',
    },
  );
  assert.ok(entry.id > 0);
  assert.match(entry.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(created.headers.get('etag'), `"${entry.updated_at}"`);
  const row = await storedEntry(entry.id);
  assert.equal(row?.status, 'in_review');
  assert.equal(row?.date_from, '2026-07-01');

  const read = await t.request('GET', `/calendar/${entry.id}`, { key: 'read' });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('x-api-preview'), 'true');
  assert.deepEqual(read.body.data, entry);
  const listed = await t.request('GET', '/calendar?date_from=2026-07-05&date_until=2026-07-05', { key: 'read' });
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.headers.get('x-api-preview'), 'true');
  assert.deepEqual(listed.body.data, [entry]);

  const patched = await t.request('PATCH', `/calendar/${entry.id}`, {
    key: 'write',
    body: { date_until: '2026-07-12', description: null, type: 'time_off' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.headers.get('x-api-preview'), 'true');
  assert.deepEqual(
    { ...patched.body.data, updated_at: '' },
    { ...entry, date_until: '2026-07-12', description: null, type: 'time_off', updated_at: '' },
  );
  assert.ok(patched.body.data.updated_at > entry.updated_at);
  assert.equal((await storedEntry(entry.id))?.date_until, '2026-07-12');
  const unchanged = await t.request('PATCH', `/calendar/${entry.id}`, { body: {} });
  assert.deepEqual(unchanged.body.data, patched.body.data);

  const deleted = await t.request('DELETE', `/calendar/${entry.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  assert.equal(deleted.headers.get('x-api-preview'), 'true');
  assert.notEqual((await storedEntry(entry.id))?.deleted_at, null);
  const gone = await t.request('GET', `/calendar/${entry.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NOT_FOUND');
  assert.equal(gone.headers.get('x-api-preview'), 'true');
  assert.equal((await t.request('PATCH', `/calendar/${entry.id}`, { body: { description: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/calendar/${entry.id}`)).status, 404);
  assert.deepEqual((await t.request('GET', '/calendar?date_from=2026-07-05&date_until=2026-07-05')).body.data, []);
});

test('every writable type is created in_review; date_until defaults to date_from; a one-day entry is valid', async () => {
  for (const type of ['vacation', 'flextime', 'sick_leave', 'time_off']) {
    const res = await t.request('POST', '/calendar', { body: { type, person_id: owner, date_from: '2026-03-02' } });
    assert.equal(res.status, 201, `${type}: ${res.text}`);
    assert.equal(res.body.data.status, 'in_review');
    assert.equal(res.body.data.date_until, '2026-03-02');
    assert.equal(res.body.data.description, null);
    assert.equal((await storedEntry(res.body.data.id))?.status, 'in_review');
  }
  const explicit = await t.request('POST', '/calendar', {
    body: {
      type: 'vacation',
      person_id: owner,
      date_from: '2026-03-03',
      date_until: '2026-03-03',
      status: 'in_review',
    },
  });
  assert.equal(explicit.status, 201, explicit.text);
  assert.equal(explicit.body.data.status, 'in_review');
});

test('list filters and scope: company (default), global, all; ordered by date_from', async () => {
  const tenant = await t.newTenant({ name: 'Calendar Co' });
  const a = await createEntry(
    { type: 'vacation', person_id: tenant.memberPersonId, date_from: '2026-12-20', date_until: '2027-01-03' },
    { tenant },
  );
  const b = await createEntry(
    { type: 'sick_leave', person_id: tenant.ownerPersonId, date_from: '2026-02-10', date_until: '2026-02-12' },
    { tenant },
  );
  const c = await createEntry(
    { type: 'flextime', person_id: tenant.memberPersonId, date_from: '2026-06-15' },
    { tenant },
  );
  const h = await insertHoliday(tenant, '2026-04-06', 'Easter Monday');
  await approve(c);
  const global = await globalHolidays();
  const get = (query: string) => t.request('GET', `/calendar${query}`, { tenant, key: 'read' });

  const company = await get('');
  assert.equal(company.status, 200, company.text);
  assert.deepEqual(ids(company), [b, h, c, a]);
  assert.deepEqual(company.body.meta, { total: 4, limit: 50, offset: 0, has_more: false });
  assert.deepEqual(ids(await get('?scope=company')), [b, h, c, a]);

  const globalOnly = await get('?scope=global');
  assert.equal(globalOnly.status, 200, globalOnly.text);
  assert.deepEqual(
    ids(globalOnly),
    global.map((g) => -g.id),
  );
  for (const entry of globalOnly.body.data) {
    assert.equal(entry.type, 'holiday');
    assert.equal(entry.person_id, null);
    assert.equal(entry.status, 'approved');
    assert.equal(entry.date_from, entry.date_until);
  }
  assert.ok(
    globalOnly.body.data.some(
      (e: { date_from: string; description: string }) =>
        e.date_from === '2026-12-25' && e.description === 'Christmas Day',
    ),
  );
  assert.ok(
    globalOnly.body.data.some(
      (e: { date_from: string; description: string }) =>
        e.date_from === '2026-01-01' && e.description === "New Year's Day",
    ),
  );

  const all = await get('?scope=all&date_from=2026-01-01&date_until=2026-12-31');
  const newYear = -global.find((g) => g.date === '2026-01-01')!.id;
  const christmas = -global.find((g) => g.date === '2026-12-25')!.id;
  assert.deepEqual(ids(all), [newYear, b, h, c, a, christmas]);
  assert.equal(all.body.meta.total, 6);
  assert.deepEqual(ids(await get('?scope=all&type=holiday&date_from=2026-01-01&date_until=2026-12-31')), [
    newYear,
    h,
    christmas,
  ]);
  assert.deepEqual(ids(await get('?scope=all&person_id=' + tenant.memberPersonId)), [c, a]);

  assert.deepEqual(ids(await get('?type=vacation,sick_leave')), [b, a]);
  assert.deepEqual(ids(await get(`?person_id=${tenant.memberPersonId}`)), [c, a]);
  assert.deepEqual(ids(await get('?status=approved')), [h, c]);
  assert.deepEqual(ids(await get('?status=in_review')), [b, a]);
  // Date filters select entries overlapping the range.
  assert.deepEqual(ids(await get('?date_from=2027-01-01')), [a]);
  assert.deepEqual(ids(await get('?date_until=2026-02-10')), [b]);
  assert.deepEqual(ids(await get('?date_from=2026-02-12&date_until=2026-06-15')), [b, h, c]);
  assert.deepEqual(ids(await get('?date_from=2026-02-13&date_until=2026-04-05')), []);
  assert.deepEqual(ids(await get('?sort=-date_from')), [a, c, h, b]);
  assert.deepEqual(ids(await get('?sort=id')), [a, b, c, h]);
  const paged = await get('?limit=2&offset=1');
  assert.deepEqual(ids(paged), [h, c]);
  assert.deepEqual(paged.body.meta, { total: 4, limit: 2, offset: 1, has_more: true });
});

test('list query errors: bad filter values 422, reversed range 400 INVALID_DATE_RANGE, unknown parameter and cursor 400', async () => {
  for (const query of [
    'type=meeting',
    'status=declined',
    'scope=world',
    'date_from=2026-13-01',
    'date_until=yesterday',
    'person_id=abc',
  ]) {
    const res = await t.request('GET', `/calendar?${query}`, { key: 'read' });
    assert.equal(res.status, 422, `${query}: ${res.text}`);
    assert.equal(res.body.error.code, 'INVALID_FILTER_VALUE');
    assert.equal(res.body.error.details.field, query.split('=')[0]);
  }
  const reversed = await t.request('GET', '/calendar?date_from=2026-05-02&date_until=2026-05-01');
  assert.equal(reversed.status, 400, reversed.text);
  assert.equal(reversed.body.error.code, 'VALIDATION_ERROR');
  assert.equal(reversed.body.error.details.reason, 'INVALID_DATE_RANGE');
  const unknown = await t.request('GET', '/calendar?q=summer');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const cursor = await t.request('GET', '/calendar?cursor=abc.def');
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
});

test('date_until before date_from is 400 VALIDATION_ERROR with reason INVALID_DATE_RANGE, on create and update', async () => {
  const before = await countEntries();
  const create = await t.request('POST', '/calendar', {
    body: { type: 'vacation', person_id: member, date_from: '2026-09-10', date_until: '2026-09-09' },
  });
  assert.equal(create.status, 400, create.text);
  assert.equal(create.body.error.code, 'VALIDATION_ERROR');
  assert.equal(create.body.error.details.reason, 'INVALID_DATE_RANGE');
  assert.equal(await countEntries(), before);

  const id = await createEntry({
    type: 'vacation',
    person_id: member,
    date_from: '2026-09-10',
    date_until: '2026-09-12',
  });
  const stored = await storedEntry(id);
  for (const body of [
    { date_until: '2026-09-09' },
    { date_from: '2026-09-13' },
    { date_from: '2026-09-20', date_until: '2026-09-19' },
  ]) {
    const res = await t.request('PATCH', `/calendar/${id}`, { body });
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.details.reason, 'INVALID_DATE_RANGE');
  }
  assert.deepEqual(await storedEntry(id), stored);
  const moved = await t.request('PATCH', `/calendar/${id}`, {
    body: { date_from: '2026-09-20', date_until: '2026-09-20' },
  });
  assert.equal(moved.status, 200, moved.text);
});

const badBodies: Array<[string, Record<string, unknown>, string]> = [
  ['unknown type', { type: 'meeting', person_id: 1, date_from: '2026-01-05' }, 'type'],
  ['unknown status', { type: 'vacation', person_id: 1, date_from: '2026-01-05', status: 'declined' }, 'status'],
  ['impossible date', { type: 'vacation', person_id: 1, date_from: '2026-02-30' }, 'date_from'],
  ['date-time instead of date', { type: 'vacation', person_id: 1, date_from: '2026-01-05T00:00:00Z' }, 'date_from'],
  ['short date', { type: 'vacation', person_id: 1, date_from: '2026-1-5' }, 'date_from'],
  ['person id as text', { type: 'vacation', person_id: '1', date_from: '2026-01-05' }, 'person_id'],
  ['null person', { type: 'vacation', person_id: null, date_from: '2026-01-05' }, 'person_id'],
  [
    'description too long',
    { type: 'vacation', person_id: 1, date_from: '2026-01-05', description: 'd'.repeat(5001) },
    'description',
  ],
  ['unknown field', { type: 'vacation', person_id: 1, date_from: '2026-01-05', hours: 8 }, 'hours'],
];

test('create and update refuse invalid bodies with 400 VALIDATION_ERROR and store nothing', async () => {
  const before = await countEntries();
  const missing: Array<[string, Record<string, unknown>, string]> = [
    ['missing type', { person_id: member, date_from: '2026-01-05' }, 'type'],
    ['missing person', { type: 'vacation', date_from: '2026-01-05' }, 'person_id'],
    ['missing date_from', { type: 'vacation', person_id: member }, 'date_from'],
  ];
  for (const [why, body, field] of [...badBodies, ...missing]) {
    const res = await t.request('POST', '/calendar', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
    assert.ok(JSON.stringify(res.body.error.details.errors).includes(field), `${why}: ${res.text}`);
  }
  assert.equal(await countEntries(), before);
  const id = await createEntry({ type: 'time_off', person_id: member, date_from: '2026-01-05' });
  const stored = await storedEntry(id);
  for (const [why, body] of badBodies) {
    const { person_id: _p, date_from: _d, ...rest } = body;
    const patch = why.includes('person')
      ? { person_id: body.person_id }
      : why.includes('date')
        ? { date_from: body.date_from }
        : rest;
    const res = await t.request('PATCH', `/calendar/${id}`, { body: patch });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
  }
  assert.deepEqual(await storedEntry(id), stored);
});

test("a person outside the company is 400 INVALID_PERSON; another tenant's entry is 404", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const before = await countEntries();
  for (const person of [other.memberPersonId, 999999]) {
    const res = await t.request('POST', '/calendar', {
      body: { type: 'vacation', person_id: person, date_from: '2026-10-01' },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'INVALID_PERSON');
    assert.equal(res.body.error.details.field, 'person_id');
  }
  assert.equal(await countEntries(), before);
  const id = await createEntry({ type: 'vacation', person_id: member, date_from: '2026-10-01' });
  const patch = await t.request('PATCH', `/calendar/${id}`, { body: { person_id: other.ownerPersonId } });
  assert.equal(patch.status, 400);
  assert.equal(patch.body.error.code, 'INVALID_PERSON');
  assert.equal((await storedEntry(id))?.person_id, member);
  const moved = await t.request('PATCH', `/calendar/${id}`, { body: { person_id: owner } });
  assert.equal(moved.status, 200);
  assert.equal(moved.body.data.person_id, owner);

  const foreign = await createEntry(
    { type: 'sick_leave', person_id: other.memberPersonId, date_from: '2026-10-02' },
    { tenant: other },
  );
  const stored = await storedEntry(foreign, other.companyId);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { description: 'x' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/calendar/${foreign}`, { body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual(await storedEntry(foreign, other.companyId), stored);
  assert.ok(!ids(await t.request('GET', '/calendar?scope=all&limit=200')).includes(foreign));
});

test("a plain member's personal key sees and writes only their own entries (and holidays); the owner's sees all", async () => {
  const tenant = await t.newTenant({ name: 'Personal Co' });
  const mine = await createEntry(
    { type: 'vacation', person_id: tenant.memberPersonId, date_from: '2026-11-02' },
    { tenant },
  );
  const theirs = await createEntry(
    { type: 'vacation', person_id: tenant.ownerPersonId, date_from: '2026-11-03' },
    { tenant },
  );
  const holiday = await insertHoliday(tenant, '2026-11-04');

  const listed = await t.request('GET', '/calendar', { tenant, key: 'personal' });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(ids(listed), [mine, holiday]);
  assert.equal(listed.body.meta.total, 2);
  assert.deepEqual(
    ids(await t.request('GET', `/calendar?person_id=${tenant.ownerPersonId}`, { tenant, key: 'personal' })),
    [],
  );
  assert.ok(ids(await t.request('GET', '/calendar?scope=all', { tenant, key: 'personal' })).some((id) => id < 0));
  assert.equal((await t.request('GET', `/calendar/${mine}`, { tenant, key: 'personal' })).status, 200);
  assert.equal((await t.request('GET', `/calendar/${holiday}`, { tenant, key: 'personal' })).status, 200);
  const before = await storedEntry(theirs, tenant.companyId);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { description: 'mine now' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/calendar/${theirs}`, { tenant, key: 'personal', body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual(await storedEntry(theirs, tenant.companyId), before);

  const forOwner = await t.request('POST', '/calendar', {
    tenant,
    key: 'personal',
    body: { type: 'sick_leave', person_id: tenant.ownerPersonId, date_from: '2026-11-05' },
  });
  assert.equal(forOwner.status, 400, forOwner.text);
  assert.equal(forOwner.body.error.code, 'INVALID_PERSON');
  const moveAway = await t.request('PATCH', `/calendar/${mine}`, {
    tenant,
    key: 'personal',
    body: { person_id: tenant.ownerPersonId },
  });
  assert.equal(moveAway.status, 400);
  assert.equal(moveAway.body.error.code, 'INVALID_PERSON');
  const own = await t.request('POST', '/calendar', {
    tenant,
    key: 'personal',
    body: { type: 'sick_leave', person_id: tenant.memberPersonId, date_from: '2026-11-05' },
  });
  assert.equal(own.status, 201, own.text);
  assert.equal(
    (await t.request('PATCH', `/calendar/${mine}`, { tenant, key: 'personal', body: { description: 'Trip' } })).status,
    200,
  );

  const everything = await t.request('GET', '/calendar', { tenant, key: 'personalAdmin' });
  assert.deepEqual(ids(everything), [mine, theirs, holiday, own.body.data.id]);
  const ownerWrites = await t.request('POST', '/calendar', {
    tenant,
    key: 'personalAdmin',
    body: { type: 'time_off', person_id: tenant.memberPersonId, date_from: '2026-11-06' },
  });
  assert.equal(ownerWrites.status, 201, ownerWrites.text);
});

test('a read key cannot write: 403 FORBIDDEN naming the write scope', async () => {
  const id = await createEntry({ type: 'vacation', person_id: member, date_from: '2026-12-01' });
  const before = await storedEntry(id);
  const total = await countEntries();
  const attempts = [
    ['POST', '/calendar', { type: 'vacation', person_id: member, date_from: '2026-12-02' }],
    ['PATCH', `/calendar/${id}`, { description: 'x' }],
    ['DELETE', `/calendar/${id}`, undefined],
  ] as const;
  for (const [method, path, body] of attempts) {
    const res = await t.request(method, path, { key: 'read', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_scope, 'write');
    assert.equal(res.headers.get('x-api-preview'), 'true');
  }
  assert.deepEqual(await storedEntry(id), before);
  assert.equal(await countEntries(), total);
});

test('Idempotency-Key on POST /calendar replays the stored answer and creates one entry', async () => {
  const body = { type: 'time_off', person_id: member, date_from: '2026-12-24', description: 'Idempotent' };
  const headers = { 'idempotency-key': 'calendar-create-1' };
  const first = await t.request('POST', '/calendar', { body, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/calendar', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.text, first.text);
  const rows = await t.db.db
    .selectFrom('calendar_entries')
    .select('id')
    .where('description', '=', 'Idempotent')
    .execute();
  assert.deepEqual(rows, [{ id: first.body.data.id }]);
});
