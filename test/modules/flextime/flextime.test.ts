import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const person = t.tenant.memberPersonId;

async function stored(id: number) {
  return t.db.db
    .selectFrom('flextime_rows')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function createRow(body: Record<string, unknown>, tenant = t.tenant) {
  const res = await t.request('POST', '/flextime', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test('POST adds a row (positive or negative seconds), answers it with an ETag and the preview header', async () => {
  const res = await t.request('POST', '/flextime', {
    body: { person_id: person, date: '2026-03-05', duration: 7200, description: 'Overtime at the fair' },
  });
  assert.equal(res.status, 201, res.text);
  const row = res.body.data;
  assert.deepEqual(
    { ...row, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      person_id: person,
      date: '2026-03-05',
      duration: 7200,
      description: 'Overtime at the fair',
      created_at: '',
      updated_at: '',
    },
  );
  assert.match(row.created_at, /Z$/);
  assert.equal(res.headers.get('etag'), `"${row.updated_at}"`);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  const db = await stored(row.id);
  assert.equal(db.duration, 7200);
  assert.equal(db.date, '2026-03-05');
  assert.equal(db.deleted_at, null);

  const deduction = await createRow({ person_id: t.tenant.ownerPersonId, date: '2026-03-06', duration: -3600 });
  assert.equal(deduction.duration, -3600);
  assert.equal(deduction.description, '');
});

test('POST refuses bad input with 400 and writes nothing', async () => {
  const before = await t.db.db
    .selectFrom('flextime_rows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .executeTakeFirstOrThrow();
  const cases: Array<[Record<string, unknown> | string, string?]> = [
    [{ person_id: person, date: '2026-03-05', duration: 0 }, 'ZERO_DURATION'],
    [{ person_id: person, date: '2026-02-30', duration: 60 }],
    [{ person_id: person, date: '05.03.2026', duration: 60 }],
    [{ person_id: person, date: '2026-03-05', duration: 1e308 }],
    [{ person_id: person, date: '2026-03-05', duration: 31622401 }],
    [{ person_id: person, date: '2026-03-05', duration: -31622401 }],
    [{ person_id: person, date: '2026-03-05', duration: 1.5 }],
    [{ person_id: person, date: '2026-03-05', duration: '60' }],
    [{ person_id: person, date: '2026-03-05', duration: 60, description: 'a\u0000b' }],
    [{ person_id: person, date: '2026-03-05', duration: 60, description: 'x'.repeat(1001) }],
    [{ person_id: person, date: '2026-03-05', duration: 60, id: 5 }],
    [{ person_id: 9223372036854775807, date: '2026-03-05', duration: 60 }],
    [{ date: '2026-03-05', duration: 60 }],
    ['[]'],
    ['{"person_id": 1, "date": "2026-03-05", "duration": 9223372036854775808}'],
  ];
  for (const [body, reason] of cases) {
    const res = await t.request('POST', '/flextime', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    if (reason) assert.equal(res.body.error.details.reason, reason);
  }
  const after = await t.db.db
    .selectFrom('flextime_rows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .executeTakeFirstOrThrow();
  assert.equal(Number(after.n), Number(before.n));
});

test("POST names a member's person: another company's person or a non-member is 400 INVALID_PERSON", async () => {
  for (const personId of [other.memberPersonId, 2147483000]) {
    const res = await t.request('POST', '/flextime', {
      body: { person_id: personId, date: '2026-03-05', duration: 60 },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'INVALID_PERSON');
    assert.equal(res.body.error.details.field, 'person_id');
  }
});

test('POST is idempotent with Idempotency-Key', async () => {
  const headers = { 'idempotency-key': 'flextime-1' };
  const body = { person_id: person, date: '2026-04-01', duration: 600 };
  const first = await t.request('POST', '/flextime', { headers, body });
  const second = await t.request('POST', '/flextime', { headers, body });
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.body.data.id, first.body.data.id);
  const reused = await t.request('POST', '/flextime', { headers, body: { ...body, duration: 601 } });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});

test('every flextime route needs the financials tier but PATCH without duration: read, write and personal keys get 403', async () => {
  const row = await createRow({ person_id: person, date: '2026-05-01', duration: 60 });
  const calls: Array<[string, string, unknown]> = [
    ['GET', '/flextime', undefined],
    ['GET', '/flextime/balance', undefined],
    ['GET', `/flextime/${row.id}`, undefined],
    ['POST', '/flextime', { person_id: person, date: '2026-05-01', duration: 60 }],
    ['PATCH', `/flextime/${row.id}`, { description: 'No' }],
    ['PATCH', `/flextime/${row.id}`, { duration: 120 }],
    ['DELETE', `/flextime/${row.id}`, undefined],
  ];
  for (const key of ['read', 'write', 'personal', 'personalAdmin']) {
    for (const [method, path, body] of calls) {
      if (key === 'write' && method === 'PATCH') continue;
      const res = await t.request(method, path, { key, body });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  }
  const db = await stored(row.id);
  assert.equal(db.duration, 60);
  assert.equal(db.deleted_at, null);
});

test('PATCH with a write key: person, date and description are written; duration is 403 and not read back', async () => {
  const row = await createRow({ person_id: person, date: '2026-05-02', duration: 600, description: 'Before' });
  const res = await t.request('PATCH', `/flextime/${row.id}`, {
    key: 'write',
    body: { description: 'After', date: '2026-05-03', person_id: t.tenant.ownerPersonId },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    [res.body.data.description, res.body.data.date, res.body.data.person_id, res.body.data.duration],
    ['After', '2026-05-03', t.tenant.ownerPersonId, null],
  );
  const refused = await t.request('PATCH', `/flextime/${row.id}`, {
    key: 'write',
    body: { description: 'Sneaky', duration: 'lots' },
  });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
  assert.deepEqual(refused.body.error.details, { required_scope: 'financials', fields: ['duration'] });
  const db = await stored(row.id);
  assert.deepEqual([db.description, db.duration], ['After', 600]);
});

test('GET lists offset-only with person and date filters; another company sees none of them', async () => {
  const a = await createRow({ person_id: person, date: '2025-01-10', duration: 100 });
  const b = await createRow({ person_id: t.tenant.ownerPersonId, date: '2025-01-20', duration: -100 });
  const theirs = await createRow({ person_id: other.memberPersonId, date: '2025-01-15', duration: 5 }, other);
  const ids = async (query: string) => {
    const res = await t.request('GET', `/flextime?limit=200&${query}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.meta.total, res.body.data.length);
    assert.equal(res.body.meta.next_cursor, undefined);
    return res.body.data.map((x: { id: number }) => x.id);
  };
  const january = await ids('date_from=2025-01-01&date_to=2025-01-31');
  assert.deepEqual(january, [a.id, b.id]);
  assert.deepEqual(await ids(`date_from=2025-01-01&date_to=2025-01-31&person_id=${person}`), [a.id]);
  assert.deepEqual(await ids('date_from=2025-01-11&date_to=2025-01-20'), [b.id]);
  assert.deepEqual(await ids('date_from=2025-01-01&date_to=2025-01-31&sort=-duration'), [a.id, b.id]);
  assert.ok(!(await ids('')).includes(theirs.id));
  const mine = await t.request('GET', `/flextime?person_id=${other.memberPersonId}`);
  assert.deepEqual(mine.body.data, []);

  const cursor = await t.request('GET', '/flextime?cursor=abc');
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  for (const query of ['date_from=2025-13-01', 'person_id=abc', 'person_id=9223372036854775808', 'date_to=%00']) {
    const bad = await t.request('GET', `/flextime?${query}`);
    assert.equal(bad.status, 422, query);
    assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
  }
  const reversed = await t.request('GET', '/flextime?date_from=2025-02-01&date_to=2025-01-01');
  assert.equal(reversed.status, 400);
  assert.equal(reversed.body.error.details.reason, 'INVALID_DATE_RANGE');
  const unknown = await t.request('GET', '/flextime?client_id=1');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test("GET one answers the row; another company's id and an absent one are 404 on every route", async () => {
  const row = await createRow({ person_id: person, date: '2026-06-01', duration: 900 });
  const res = await t.request('GET', `/flextime/${row.id}`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data, row);
  const theirs = await createRow({ person_id: other.memberPersonId, date: '2026-06-01', duration: 5 }, other);
  for (const id of [theirs.id, 2147483000]) {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { description: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const missing = await t.request(method, `/flextime/${id}`, { body });
      assert.equal(missing.status, 404, `${method} ${id}`);
      assert.equal(missing.body.error.code, 'NOT_FOUND');
    }
  }
  const still = await t.request('GET', `/flextime/${theirs.id}`, { tenant: other });
  assert.equal(still.body.data.description, '');
  const bad = await t.request('GET', '/flextime/0');
  assert.equal(bad.status, 400);
});

test('PATCH changes fields (duration with an admin key), honours If-Match, an empty body changes nothing', async () => {
  const row = await createRow({ person_id: person, date: '2026-06-02', duration: 900 });
  const same = await t.request('PATCH', `/flextime/${row.id}`, { body: {} });
  assert.equal(same.status, 200);
  assert.equal(same.body.data.updated_at, row.updated_at);

  const changed = await t.request('PATCH', `/flextime/${row.id}`, {
    body: { duration: -1800, description: 'Left early', date: '2026-06-03', person_id: t.tenant.ownerPersonId },
  });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.data.duration, -1800);
  assert.equal(changed.body.data.person_id, t.tenant.ownerPersonId);
  assert.notEqual(changed.body.data.updated_at, row.updated_at);
  assert.equal((await stored(row.id)).date, '2026-06-03');

  const stale = await t.request('PATCH', `/flextime/${row.id}`, {
    body: { duration: 60 },
    headers: { 'if-match': `"${row.updated_at}"` },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  const fresh = await t.request('PATCH', `/flextime/${row.id}`, {
    body: { duration: 60 },
    headers: { 'if-match': changed.headers.get('etag')! },
  });
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal((await stored(row.id)).duration, 60);

  for (const body of [{ duration: 0 }, { person_id: other.memberPersonId }, { date: null }, { extra: 1 }]) {
    const res = await t.request('PATCH', `/flextime/${row.id}`, { body });
    assert.equal(res.status, 400, JSON.stringify(body));
  }
  assert.equal((await stored(row.id)).person_id, t.tenant.ownerPersonId);
});

test('DELETE soft-deletes (204); the row is gone from reads and lists, and a stale If-Match is refused', async () => {
  const row = await createRow({ person_id: person, date: '2026-06-04', duration: 300 });
  const stale = await t.request('DELETE', `/flextime/${row.id}`, {
    headers: { 'if-match': '"2000-01-01T00:00:00.000Z"' },
  });
  assert.equal(stale.status, 412);
  const res = await t.request('DELETE', `/flextime/${row.id}`);
  assert.equal(res.status, 204);
  assert.equal(res.text, '');
  assert.notEqual((await stored(row.id)).deleted_at, null);
  assert.equal((await t.request('GET', `/flextime/${row.id}`)).status, 404);
  const list = await t.request('GET', '/flextime?date_from=2026-06-04&date_to=2026-06-04');
  assert.deepEqual(list.body.data, []);
  assert.equal((await t.request('DELETE', `/flextime/${row.id}`)).status, 404);
  const audit = await t.db.db
    .selectFrom('activities')
    .select(['entity', 'action', 'record_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('record_id', '=', row.id)
    .where('entity', '=', 'flextime')
    .orderBy('id')
    .execute();
  assert.deepEqual(
    audit.map((a) => a.action),
    ['created', 'deleted'],
  );
});
