import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { agreementFixtures } from './support.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const person = t.tenant.memberPersonId;
const owner = t.tenant.ownerPersonId;

const { stored, newPerson, create } = agreementFixtures(t);

test('POST creates with defaults, answers exact amounts and an ETag, stores exact decimals', async () => {
  const res = await t.request('POST', '/agreements', { body: { person_id: person, date_from: '2025-01-01' } });
  assert.equal(res.status, 201, res.text);
  const a = res.body.data;
  assert.deepEqual(
    { ...a, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      person_id: person,
      date_from: '2025-01-01',
      date_until: null,
      cost_type: 'hour',
      cost_rate: 0,
      weekly_hours: 40,
      work_days: [1, 2, 3, 4, 5],
      created_at: '',
      updated_at: '',
    },
  );
  assert.equal(res.headers.get('etag'), `"${a.updated_at}"`);
  assert.equal(res.headers.get('x-api-preview'), null);
  assert.equal(res.body.warnings, undefined);

  const monthly = await create({
    person_id: owner,
    date_from: '2025-01-01',
    date_until: '2025-12-31',
    cost_type: 'month',
    cost_rate: 4321.1234,
    weekly_hours: 37.5,
    work_days: [5, 1, 3],
  });
  assert.equal(monthly.cost_rate, 4321.1234);
  assert.equal(monthly.weekly_hours, 37.5);
  assert.deepEqual(monthly.work_days, [1, 3, 5]);
  const row = await stored(monthly.id);
  assert.equal(row?.cost_rate, '4321.1234');
  assert.equal(row?.weekly_hours, '37.50');
  assert.equal(row?.cost_type, 'month');
});

test('POST refuses bad input with 400 naming the field; nothing is stored', async () => {
  const base = { person_id: person, date_from: '2024-01-01' };
  const reasons: Array<[Record<string, unknown>, string, string]> = [
    [{ ...base, cost_rate: -1 }, 'cost_rate', 'OUT_OF_RANGE'],
    [{ ...base, cost_rate: 1e308 }, 'cost_rate', 'OUT_OF_RANGE'],
    [{ ...base, cost_rate: 1.23456 }, 'cost_rate', 'TOO_MANY_DECIMALS'],
    [{ ...base, weekly_hours: 168.01 }, 'weekly_hours', 'OUT_OF_RANGE'],
    [{ ...base, weekly_hours: 10.001 }, 'weekly_hours', 'TOO_MANY_DECIMALS'],
    [{ ...base, date_until: '2023-12-31' }, 'date_until', 'INVALID_DATE_RANGE'],
    [{ ...base, work_days: [] }, 'work_days', 'WORK_DAYS_REQUIRED'],
  ];
  for (const [body, field, reason] of reasons) {
    const res = await t.request('POST', '/agreements', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.field, field, JSON.stringify(body));
    assert.equal(res.body.error.details.reason, reason, JSON.stringify(body));
  }
  const shapes = [
    { person_id: person },
    { date_from: '2024-01-01' },
    { ...base, cost_type: 'day' },
    { ...base, date_from: '2024-02-30' },
    { ...base, date_from: '2024-01-01\u0000' },
    { ...base, cost_rate: '12' },
    { ...base, work_days: [0] },
    { ...base, work_days: [1, 1] },
    { ...base, person_id: 9223372036854775807 },
    { ...base, extra: 1 },
  ];
  for (const body of shapes) {
    const res = await t.request('POST', '/agreements', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const zeroHours = await create({ ...base, weekly_hours: 0, work_days: [] });
  assert.deepEqual(zeroHours.work_days, []);
  const count = await t.db.db
    .selectFrom('agreements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .where('date_from', '=', '2024-01-01')
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 1);
});

test('POST refuses a person who is not a member of this company with 400 INVALID_PERSON', async () => {
  const contactPerson = await t.db.db
    .insertInto('people')
    .values({ company_id: t.tenant.companyId, name: 'Not a member' })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const id of [contactPerson.id, other.memberPersonId, 2147483000]) {
    const res = await t.request('POST', '/agreements', { body: { person_id: id, date_from: '2024-01-01' } });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'INVALID_PERSON');
    assert.equal(res.body.error.details.field, 'person_id');
  }
});

test('an overlapping period is created with warning AGREEMENT_OVERLAP naming the other ids (and the legacy header)', async () => {
  const person = await newPerson();
  const first = await create({ person_id: person, date_from: '2030-01-01', date_until: '2030-06-30' });
  const second = await t.request('POST', '/agreements', {
    body: { person_id: person, date_from: '2030-06-30' },
  });
  assert.equal(second.status, 201);
  assert.deepEqual(second.body.warnings, [
    {
      code: 'AGREEMENT_OVERLAP',
      message: second.body.warnings[0].message,
      details: { overlapping_ids: [first.id], person_id: person },
    },
  ]);
  assert.deepEqual(JSON.parse(second.headers.get('x-service-warning')!), second.body.warnings);
  const third = await t.request('POST', '/agreements', {
    body: { person_id: person, date_from: '2029-01-01', date_until: '2031-01-01' },
  });
  assert.deepEqual(third.body.warnings[0].details.overlapping_ids, [first.id, second.body.data.id]);
  const before = await t.request('POST', '/agreements', {
    body: { person_id: person, date_from: '2028-01-01', date_until: '2028-12-31' },
  });
  assert.equal(before.body.warnings, undefined);
  assert.equal(before.headers.get('x-service-warning'), null);
  const otherPerson = await t.request('POST', '/agreements', { body: { person_id: owner, date_from: '2030-03-01' } });
  assert.equal(otherPerson.body.warnings, undefined);
});

test('POST is idempotent with Idempotency-Key', async () => {
  const headers = { 'idempotency-key': 'agreement-create-1' };
  const body = { person_id: person, date_from: '2040-01-01' };
  const first = await t.request('POST', '/agreements', { headers, body });
  const second = await t.request('POST', '/agreements', { headers, body });
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(second.body, first.body);
  const rows = await t.db.db
    .selectFrom('agreements')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('date_from', '=', '2040-01-01')
    .execute();
  assert.equal(rows.length, 1);
  const reused = await t.request('POST', '/agreements', { headers, body: { ...body, cost_type: 'month' } });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});

test('every agreement route needs the financials tier: read, write and personal keys get 403', async () => {
  const a = await create({ person_id: person, date_from: '2050-01-01' });
  const member = await t.db.db
    .selectFrom('members')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', person)
    .executeTakeFirstOrThrow();
  const calls: Array<[string, string, unknown]> = [
    ['GET', '/agreements', undefined],
    ['GET', `/agreements/${a.id}`, undefined],
    ['POST', '/agreements', { person_id: person, date_from: '2050-01-01' }],
    ['PATCH', `/agreements/${a.id}`, { cost_rate: 1 }],
    ['DELETE', `/agreements/${a.id}`, undefined],
    ['GET', `/members/${member.id}/agreements`, undefined],
    ['POST', `/members/${member.id}/agreements`, { date_from: '2050-01-01' }],
    ['GET', `/members/${member.id}/agreements/${a.id}`, undefined],
    ['PATCH', `/members/${member.id}/agreements/${a.id}`, { cost_rate: 1 }],
    ['DELETE', `/members/${member.id}/agreements/${a.id}`, undefined],
  ];
  for (const key of ['read', 'write', 'personal', 'personalAdmin']) {
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { key, body, headers: { 'if-match': '*' } });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  }
  assert.equal((await stored(a.id))?.cost_rate, '0.0000');
});

test('GET lists offset-only; date_from/date_until select overlapping periods; person_id filters', async () => {
  const early = await create({ person_id: owner, date_from: '2010-01-01', date_until: '2010-12-31' });
  const open = await create({ person_id: owner, date_from: '2011-06-01' });
  const theirs = await create({ person_id: other.memberPersonId, date_from: '2010-01-01' }, other);
  const ids = async (query: string) => {
    const res = await t.request('GET', `/agreements?limit=200&person_id=${owner}${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((x: { id: number }) => x.id);
  };
  const all = await ids('');
  assert.ok(all.includes(early.id) && all.includes(open.id) && !all.includes(theirs.id));
  assert.deepEqual((await ids('&date_from=2010-06-01&date_until=2010-07-01')).includes(early.id), true);
  assert.deepEqual((await ids('&date_from=2010-06-01&date_until=2010-07-01')).includes(open.id), false);
  assert.ok((await ids('&date_from=2099-01-01')).includes(open.id));
  assert.ok(!(await ids('&date_from=2011-01-01')).includes(early.id));
  assert.ok(!(await ids('&date_until=2011-05-31')).includes(open.id));
  const page = await t.request('GET', '/agreements?limit=1');
  assert.equal(page.body.meta.limit, 1);
  assert.equal(page.body.meta.has_more, true);
  assert.equal(typeof page.body.meta.total, 'number');
  assert.equal(page.body.meta.next_cursor, undefined);
  const sorted = await t.request('GET', '/agreements?sort=-date_from&limit=200');
  const dates = sorted.body.data.map((x: { date_from: string }) => x.date_from);
  assert.deepEqual(dates, [...dates].sort().reverse());
  const errors: Array<[string, number, string]> = [
    ['cursor=abc', 400, 'INVALID_CURSOR'],
    ['date_from=2010-13-01', 422, 'INVALID_FILTER_VALUE'],
    ['person_id=x', 422, 'INVALID_FILTER_VALUE'],
    ['date_from=2011-01-02&date_until=2011-01-01', 400, 'VALIDATION_ERROR'],
    ['status=active', 400, 'UNKNOWN_FILTER_FIELD'],
  ];
  for (const [query, status, code] of errors) {
    const res = await t.request('GET', `/agreements?${query}`);
    assert.equal(res.status, status, query);
    assert.equal(res.body.error.code, code, query);
  }
});

test("GET one answers the agreement; another company's id and an absent one are 404 on every route", async () => {
  const a = await create({ person_id: person, date_from: '2060-01-01' });
  const res = await t.request('GET', `/agreements/${a.id}`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data, a);
  const theirs = await create({ person_id: other.memberPersonId, date_from: '2060-01-01' }, other);
  for (const id of [theirs.id, 2147483000]) {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { cost_rate: 'not a number' }],
      ['DELETE', undefined],
    ] as const) {
      const missing = await t.request(method, `/agreements/${id}`, { body, headers: { 'if-match': '*' } });
      assert.equal(missing.status, 404, `${method} ${id}`);
      assert.equal(missing.body.error.code, 'NOT_FOUND');
    }
  }
  const noIfMatch = await t.request('DELETE', `/agreements/${theirs.id}`);
  assert.equal(noIfMatch.status, 404);
});
