import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

async function newClient(tenant: TenantFixture = t.tenant): Promise<number> {
  const row = await t.db.db
    .insertInto('clients')
    .values({ company_id: tenant.companyId, name: 'Watched' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function stored(id: number) {
  return t.db.db
    .selectFrom('monitors')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function create(body: Record<string, unknown>, tenant = t.tenant) {
  const res = await t.request('POST', '/monitors', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const base = (clientId: number) => ({ client_id: clientId, type: 'revenue', frequency: 'month', value: 1000 });

test('POST creates with defaults (preview), stores exact thresholds and sets the client has_monitor', async () => {
  const client = await newClient();
  const res = await t.request('POST', '/monitors', { body: base(client) });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  const m = res.body.data;
  assert.equal(res.headers.get('etag'), `"${m.updated_at}"`);
  const { id, created_at, updated_at, ...rest } = m;
  assert.ok(id && created_at && updated_at);
  assert.deepEqual(rest, {
    client_id: client,
    type: 'revenue',
    role_person_id: null,
    frequency: 'month',
    active: true,
    value: 1000,
    range_value: null,
  });
  const full = await create({
    ...base(client),
    type: 'margin',
    role_person_id: t.tenant.memberPersonId,
    value: -10.5,
    range_value: 2500.75,
    active: false,
  });
  assert.deepEqual([full.value, full.range_value, full.active], [-10.5, 2500.75, false]);
  const row = await stored(full.id);
  assert.deepEqual([row.value, row.range_value], ['-10.50', '2500.75']);
  const read = await t.request('GET', `/clients/${client}`, { key: 'read' });
  assert.equal(read.body.data.has_monitor, 1);
});

test('POST refuses bad input with the usual 400 body; nothing is stored', async () => {
  const client = await newClient();
  const memberless = await t.db.db
    .insertInto('people')
    .values({ company_id: t.tenant.companyId, name: 'Contact' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ value: 1e308 }, 'VALIDATION_ERROR', 'value'],
    [{ value: 1.001 }, 'VALIDATION_ERROR', 'value'],
    [{ range_value: 999.99 }, 'VALIDATION_ERROR', 'range_value'],
    [{ range_value: -1e20 }, 'VALIDATION_ERROR', 'range_value'],
    [{ client_id: await newClient(other) }, 'INVALID_CLIENT', 'client_id'],
    [{ client_id: 2147483000 }, 'INVALID_CLIENT', 'client_id'],
    [{ role_person_id: memberless.id }, 'INVALID_PERSON', 'role_person_id'],
    [{ role_person_id: other.memberPersonId }, 'INVALID_PERSON', 'role_person_id'],
  ];
  for (const [patch, code, field] of cases) {
    const res = await t.request('POST', '/monitors', { body: { ...base(client), ...patch } });
    assert.equal(res.status, 400, JSON.stringify(patch));
    assert.equal(res.body.error.code, code, JSON.stringify(patch));
    assert.equal(res.body.error.details.field, field, JSON.stringify(patch));
  }
  const range = await t.request('POST', '/monitors', { body: { ...base(client), range_value: 5 } });
  assert.equal(range.body.error.details.reason, 'INVALID_RANGE');
  for (const patch of [
    { type: 'profit' },
    { frequency: 'day' },
    { active: 'yes' },
    { value: '10' },
    { value: null },
    { type: 'rev\u0000enue' },
    { client_id: 9223372036854775807 },
    { extra: true },
  ]) {
    const res = await t.request('POST', '/monitors', { body: { ...base(client), ...patch } });
    assert.equal(res.status, 400, JSON.stringify(patch));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  for (const missing of ['client_id', 'type', 'frequency', 'value']) {
    const { [missing as 'type']: _dropped, ...body } = base(client);
    const res = await t.request('POST', '/monitors', { body });
    assert.equal(res.status, 400, missing);
  }
  const count = await t.db.db
    .selectFrom('monitors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .where('client_id', '=', client)
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 0);
  assert.equal((await t.request('GET', `/clients/${client}`)).body.data.has_monitor, 0);
});

test('POST is idempotent with Idempotency-Key, on /monitors and on /clients/{id}/monitors', async () => {
  const client = await newClient();
  for (const [path, body] of [
    ['/monitors', base(client)],
    [`/clients/${client}/monitors`, { type: 'hours', frequency: 'week', value: 40 }],
  ] as const) {
    const headers = { 'idempotency-key': `monitor-${path}` };
    const first = await t.request('POST', path, { headers, body });
    const second = await t.request('POST', path, { headers, body });
    assert.equal(first.status, 201, first.text);
    assert.equal(second.status, 201, path);
    assert.equal(second.headers.get('idempotency-replayed'), 'true');
    assert.deepEqual(second.body, first.body);
    const reused = await t.request('POST', path, { headers, body: { ...body, value: 1 } });
    assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  }
});

test('every monitor route needs the financials tier but PATCH of plain fields: read, write and personal keys get 403', async () => {
  const client = await newClient();
  const m = await create(base(client));
  const calls: Array<[string, string, unknown]> = [
    ['GET', '/monitors', undefined],
    ['GET', `/monitors/${m.id}`, undefined],
    ['POST', '/monitors', { ...base(client), frequency: 'year' }],
    ['PATCH', `/monitors/${m.id}`, { active: false }],
    ['PATCH', `/monitors/${m.id}`, { value: 1 }],
    ['DELETE', `/monitors/${m.id}`, undefined],
    ['GET', `/clients/${client}/monitors`, undefined],
    ['POST', `/clients/${client}/monitors`, { type: 'hours', frequency: 'year', value: 1 }],
  ];
  for (const key of ['read', 'write', 'personal', 'personalAdmin'])
    for (const [method, path, body] of calls) {
      if (key === 'write' && method === 'PATCH') continue;
      const res = await t.request(method, path, { key, body, headers: { 'if-match': '*' } });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  const row = await stored(m.id);
  assert.deepEqual([row.active, row.value, row.deleted_at], [true, '1000.00', null]);
});

test('GET lists with every filter and in cursor mode; another company sees none', async () => {
  const client = await newClient();
  const person = t.tenant.ownerPersonId;
  const a = await create(base(client));
  const b = await create({ ...base(client), type: 'hours', frequency: 'week', role_person_id: person });
  const c = await create({ ...base(client), frequency: 'year', active: false });
  await create(base(await newClient(other)), other);
  const ids = async (query: string) => {
    const res = await t.request('GET', `/monitors?client_id=${client}${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((x: { id: number }) => x.id);
  };
  assert.deepEqual(await ids(''), [a.id, b.id, c.id]);
  assert.deepEqual(await ids('&type=hours'), [b.id]);
  assert.deepEqual(await ids('&type=hours,revenue&frequency=month,year'), [a.id, c.id]);
  assert.deepEqual(await ids(`&role_person_id=${person}`), [b.id]);
  assert.deepEqual(await ids('&active=false'), [c.id]);
  assert.deepEqual(await ids('&active=true&sort=-id'), [b.id, a.id]);
  const firstPage = await t.request('GET', `/monitors?client_id=${client}&limit=2`);
  assert.equal(firstPage.body.meta.total, 3);
  const cursor = firstPage.body.meta.next_cursor;
  assert.equal(typeof cursor, 'string');
  const next = await t.request('GET', `/monitors?cursor=${encodeURIComponent(cursor)}&limit=2`);
  assert.equal(next.status, 200, next.text);
  assert.deepEqual(
    next.body.data.map((x: { id: number }) => x.id),
    [c.id],
  );
  assert.deepEqual(next.body.meta, { limit: 2, has_more: false, next_cursor: null });
  const theirs = await t.request('GET', `/monitors?cursor=${encodeURIComponent(cursor)}`, { tenant: other });
  assert.equal(theirs.body.error.code, 'INVALID_CURSOR');
  for (const [query, status, code] of [
    ['cursor=abc', 400, 'INVALID_CURSOR'],
    ['type=profit', 422, 'INVALID_FILTER_VALUE'],
    ['active=maybe', 422, 'INVALID_FILTER_VALUE'],
    ['status=active', 400, 'UNKNOWN_FILTER_FIELD'],
  ] as const) {
    const res = await t.request('GET', `/monitors?${query}`);
    assert.equal(res.status, status, query);
    assert.equal(res.body.error.code, code, query);
  }
});

test('PATCH with a write key: all but the thresholds are written; value and range_value are 403 and not read back', async () => {
  const client = await newClient();
  const m = await create({ ...base(client), range_value: 2000 });
  const res = await t.request('PATCH', `/monitors/${m.id}`, {
    key: 'write',
    body: { frequency: 'year', active: false, role_person_id: t.tenant.memberPersonId },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    [res.body.data.frequency, res.body.data.active, res.body.data.role_person_id],
    ['year', false, t.tenant.memberPersonId],
  );
  assert.deepEqual([res.body.data.value, res.body.data.range_value], [null, null]);
  const etag = { 'if-match': res.headers.get('etag')! };
  for (const [body, fields] of [
    [{ value: 5 }, ['value']],
    [{ active: true, range_value: null }, ['range_value']],
  ] as const) {
    const refused = await t.request('PATCH', `/monitors/${m.id}`, { key: 'write', body, headers: etag });
    assert.equal(refused.status, 403, JSON.stringify(body));
    assert.equal(refused.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    assert.deepEqual(refused.body.error.details, { required_scope: 'financials', fields });
  }
  const row = await stored(m.id);
  assert.deepEqual([row.frequency, row.active, row.value, row.range_value], ['year', false, '1000.00', '2000.00']);
});

test('PATCH: plain fields honour If-Match when sent; value and range_value need it (428, 412)', async () => {
  const client = await newClient();
  const m = await create(base(client));
  const plain = await t.request('PATCH', `/monitors/${m.id}`, {
    body: { frequency: 'quarter', role_person_id: t.tenant.memberPersonId },
  });
  assert.equal(plain.status, 200, plain.text);
  assert.equal(plain.body.data.frequency, 'quarter');
  const stalePlain = await t.request('PATCH', `/monitors/${m.id}`, {
    body: { frequency: 'year' },
    headers: { 'if-match': `"${m.updated_at}"` },
  });
  assert.equal(stalePlain.status, 412);
  for (const body of [{ value: 5 }, { range_value: 5000 }, { range_value: null }]) {
    const missing = await t.request('PATCH', `/monitors/${m.id}`, { body });
    assert.equal(missing.status, 428, JSON.stringify(body));
    assert.equal(missing.body.error.code, 'PRECONDITION_REQUIRED');
    const stale = await t.request('PATCH', `/monitors/${m.id}`, { body, headers: { 'if-match': `"${m.updated_at}"` } });
    assert.equal(stale.status, 412);
  }
  const fresh = await t.request('PATCH', `/monitors/${m.id}`, {
    body: { value: 500.25, range_value: 750 },
    headers: { 'if-match': plain.headers.get('etag')! },
  });
  assert.equal(fresh.status, 200, fresh.text);
  assert.deepEqual([fresh.body.data.value, fresh.body.data.range_value], [500.25, 750]);
  const row = await stored(m.id);
  assert.deepEqual([row.value, row.range_value, row.frequency], ['500.25', '750.00', 'quarter']);
  const below = await t.request('PATCH', `/monitors/${m.id}`, {
    body: { value: 751 },
    headers: { 'if-match': fresh.headers.get('etag')! },
  });
  assert.equal(below.status, 400);
  assert.equal(below.body.error.details.reason, 'INVALID_RANGE');
  const badClient = await t.request('PATCH', `/monitors/${m.id}`, { body: { client_id: await newClient(other) } });
  assert.equal(badClient.body.error.code, 'INVALID_CLIENT');
  const same = await t.request('PATCH', `/monitors/${m.id}`, { body: {} });
  assert.equal(same.body.data.updated_at, fresh.body.data.updated_at);
});

test("DELETE needs If-Match; then 404; another company's ids are 404 on every route whatever the body", async () => {
  const client = await newClient();
  const m = await create(base(client));
  assert.equal((await t.request('DELETE', `/monitors/${m.id}`)).status, 428);
  const stale = await t.request('DELETE', `/monitors/${m.id}`, { headers: { 'if-match': '"2000-01-01T00:00:00Z"' } });
  assert.equal(stale.status, 412);
  const gone = await t.request('DELETE', `/monitors/${m.id}`, { headers: { 'if-match': `"${m.updated_at}"` } });
  assert.equal(gone.status, 204);
  assert.ok((await stored(m.id)).deleted_at);
  const theirClient = await newClient(other);
  const theirs = await create(base(theirClient), other);
  for (const id of [m.id, theirs.id, 2147483000])
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { active: false }],
      ['PATCH', { value: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `/monitors/${id}`, { body, headers: { 'if-match': '*' } });
      assert.equal(res.status, 404, `${method} ${id}`);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
  for (const [method, body] of [
    ['GET', undefined],
    ['POST', {}],
    ['POST', { type: 'hours', frequency: 'week', value: 1 }],
  ] as const) {
    const res = await t.request(method, `/clients/${theirClient}/monitors`, { body });
    assert.equal(res.status, 404, `${method} nested`);
  }
  assert.equal((await stored(m.id)).deleted_at !== null, true);
});
