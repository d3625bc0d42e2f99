import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

async function stored(id: number) {
  return t.db.db
    .selectFrom('taxes')
    .select(['name', 'rate', 'status', 'updated_at'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function createTax(body: Record<string, unknown>, tenant = t.tenant) {
  const res = await t.request('POST', '/taxes', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test('POST takes rate or percent and answers both, stored once as an exact fraction', async () => {
  const byRate = await t.request('POST', '/taxes', { body: { name: 'VAT 22', rate: 0.22 } });
  assert.equal(byRate.status, 201, byRate.text);
  const tax = byRate.body.data;
  assert.equal(tax.rate, 0.22);
  assert.equal(tax.percent, 22);
  assert.equal(tax.status, 'active');
  assert.match(tax.created_at, /Z$/);
  assert.equal(byRate.headers.get('etag'), `"${tax.updated_at}"`);
  assert.equal((await stored(tax.id)).rate, '0.220000');

  const byPercent = await createTax({ name: 'Reduced', percent: 9.5 });
  assert.equal(byPercent.rate, 0.095);
  assert.equal(byPercent.percent, 9.5);
  assert.equal((await stored(byPercent.id)).rate, '0.095000');

  const both = await createTax({ name: 'Both', rate: 0.123456, percent: 12.3456, status: 'inactive' });
  assert.equal(both.rate, 0.123456);
  assert.equal(both.percent, 12.3456);
  assert.equal(both.status, 'inactive');

  const zero = await createTax({ name: 'Exempt', percent: 0 });
  assert.equal(zero.rate, 0);
  assert.equal(zero.percent, 0);
});

test('POST refuses a rate of 22, disagreeing rate and percent, missing rate, too many decimals', async () => {
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ name: 'X', rate: 22 }, 'rate', 'OUT_OF_RANGE'],
    [{ name: 'X', rate: -0.1 }, 'rate', 'OUT_OF_RANGE'],
    [{ name: 'X', percent: 101 }, 'percent', 'OUT_OF_RANGE'],
    [{ name: 'X', rate: 0.22, percent: 20 }, 'percent', 'RATE_PERCENT_MISMATCH'],
    [{ name: 'X' }, 'rate', 'REQUIRED'],
    [{ name: 'X', rate: 0.1234567 }, 'rate', 'TOO_MANY_DECIMALS'],
    [{ name: 'X', percent: 12.34567 }, 'percent', 'TOO_MANY_DECIMALS'],
    [{ name: 'X', rate: 1e308 }, 'rate', 'OUT_OF_RANGE'],
  ];
  for (const [body, field, reason] of cases) {
    const res = await t.request('POST', '/taxes', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.field, field, JSON.stringify(body));
    assert.equal(res.body.error.details.reason, reason, JSON.stringify(body));
  }
  for (const body of [
    { rate: 0.2 },
    { name: '', rate: 0.2 },
    { name: 'X', rate: '0.2' },
    { name: 'X', rate: 0.2, x: 1 },
  ]) {
    const res = await t.request('POST', '/taxes', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const unknown = await t.request('POST', '/taxes', { body: { name: 'X', rate: 0.2, deleted: true } });
  assert.match(JSON.stringify(unknown.body.error), /deleted/);
  const count = await t.db.db
    .selectFrom('taxes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'X')
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 0);
});

test('POST is idempotent with Idempotency-Key', async () => {
  const headers = { 'idempotency-key': 'tax-create-1' };
  const first = await t.request('POST', '/taxes', { headers, body: { name: 'Once', rate: 0.2 } });
  const second = await t.request('POST', '/taxes', { headers, body: { name: 'Once', rate: 0.2 } });
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.body.data.id, first.body.data.id);
  const reused = await t.request('POST', '/taxes', { headers, body: { name: 'Twice', rate: 0.2 } });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});

test('every tax route needs the financials tier but PATCH of name and status: read, write and personal keys get 403', async () => {
  const tax = await createTax({ name: 'Gate', rate: 0.1 });
  const calls: Array<[string, string, unknown]> = [
    ['GET', '/taxes', undefined],
    ['GET', `/taxes/${tax.id}`, undefined],
    ['POST', '/taxes', { name: 'No', rate: 0.1 }],
    ['PATCH', `/taxes/${tax.id}`, { name: 'No' }],
  ];
  for (const key of ['read', 'write', 'personal', 'personalAdmin']) {
    for (const [method, path, body] of calls) {
      if (key === 'write' && method === 'PATCH') continue;
      const res = await t.request(method, path, { key, body });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  }
  assert.equal((await stored(tax.id)).name, 'Gate');
});

test('PATCH with a write key: name and status are written, rate and percent are 403 FINANCIAL_SCOPE_REQUIRED', async () => {
  const tax = await createTax({ name: 'Write tier', rate: 0.2 });
  const renamed = await t.request('PATCH', `/taxes/${tax.id}`, {
    key: 'write',
    body: { name: 'Renamed', status: 'inactive' },
  });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.data.name, 'Renamed');
  assert.equal(renamed.body.data.status, 'inactive');
  assert.deepEqual([renamed.body.data.rate, renamed.body.data.percent], [null, null], 'the rate is not read');
  const etag = { 'if-match': renamed.headers.get('etag')! };
  for (const [body, fields] of [
    [{ rate: 0.3 }, ['rate']],
    [{ percent: 30 }, ['percent']],
    [{ name: 'Sneaky', rate: 'not a number', percent: 30 }, ['rate', 'percent']],
  ] as const) {
    const res = await t.request('PATCH', `/taxes/${tax.id}`, { key: 'write', body, headers: etag });
    assert.equal(res.status, 403, JSON.stringify(body));
    assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    assert.deepEqual(res.body.error.details, { required_scope: 'financials', fields });
  }
  const row = await stored(tax.id);
  assert.deepEqual([row.name, row.status, row.rate], ['Renamed', 'inactive', '0.200000']);
  const admin = await t.request('PATCH', `/taxes/${tax.id}`, { body: { rate: 0.3 }, headers: etag });
  assert.equal(admin.status, 200, admin.text);
  assert.deepEqual([admin.body.data.rate, admin.body.data.percent], [0.3, 30]);
});

test('GET lists offset-only with status and q filters; another company sees none of them', async () => {
  const a = await createTax({ name: 'Alpha 100%_x', rate: 0.2 });
  const b = await createTax({ name: 'Beta', rate: 0.1, status: 'inactive' });
  const theirs = await createTax({ name: 'Alpha theirs', rate: 0.2 }, other);
  const all = await t.request('GET', '/taxes?limit=200');
  assert.equal(all.status, 200, all.text);
  const ids = all.body.data.map((x: { id: number }) => x.id);
  assert.ok(ids.includes(a.id) && ids.includes(b.id) && !ids.includes(theirs.id));
  assert.equal(all.body.meta.total, all.body.data.length);
  assert.equal(all.body.meta.next_cursor, undefined);
  const inactive = await t.request('GET', '/taxes?status=inactive&limit=200');
  assert.ok(inactive.body.data.every((x: { status: string }) => x.status === 'inactive'));
  assert.ok(inactive.body.data.some((x: { id: number }) => x.id === b.id));
  const literal = await t.request('GET', `/taxes?q=${encodeURIComponent('100%_')}`);
  assert.deepEqual(
    literal.body.data.map((x: { id: number }) => x.id),
    [a.id],
  );
  const sorted = await t.request('GET', '/taxes?sort=-rate&limit=200');
  const rates = sorted.body.data.map((x: { rate: number }) => x.rate);
  assert.deepEqual(
    rates,
    [...rates].sort((x, y) => y - x),
  );
  const cursor = await t.request('GET', '/taxes?cursor=abc');
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  const badFilter = await t.request('GET', '/taxes?status=gone');
  assert.equal(badFilter.status, 422);
  assert.equal(badFilter.body.error.code, 'INVALID_FILTER_VALUE');
  const unknownFilter = await t.request('GET', '/taxes?type=x');
  assert.equal(unknownFilter.status, 400);
  assert.equal(unknownFilter.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test("GET one answers the tax; another company's id and an absent one are 404", async () => {
  const tax = await createTax({ name: 'One', percent: 5 });
  const res = await t.request('GET', `/taxes/${tax.id}`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data, tax);
  assert.equal(res.headers.get('etag'), `"${tax.updated_at}"`);
  const theirs = await createTax({ name: 'Theirs', percent: 5 }, other);
  for (const id of [theirs.id, 2147483000]) {
    const missing = await t.request('GET', `/taxes/${id}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'NOT_FOUND');
  }
  const patched = await t.request('PATCH', `/taxes/${theirs.id}`, { body: { name: 'Mine now' } });
  assert.equal(patched.status, 404);
});

test('PATCH name and status need no If-Match; rate and percent need If-Match (428, 412) and stay consistent', async () => {
  const tax = await createTax({ name: 'Std', rate: 0.2 });
  const renamed = await t.request('PATCH', `/taxes/${tax.id}`, { body: { name: 'Standard', status: 'inactive' } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.data.name, 'Standard');
  assert.equal(renamed.body.data.status, 'inactive');
  assert.notEqual(renamed.body.data.updated_at, tax.updated_at);

  const missing = await t.request('PATCH', `/taxes/${tax.id}`, { body: { rate: 0.24 } });
  assert.equal(missing.status, 428);
  assert.equal(missing.body.error.code, 'PRECONDITION_REQUIRED');
  const stale = await t.request('PATCH', `/taxes/${tax.id}`, {
    body: { percent: 24 },
    headers: { 'if-match': `"${tax.updated_at}"` },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  assert.equal((await stored(tax.id)).rate, '0.200000');

  const fresh = await t.request('PATCH', `/taxes/${tax.id}`, {
    body: { percent: 24 },
    headers: { 'if-match': renamed.headers.get('etag')! },
  });
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(fresh.body.data.rate, 0.24);
  assert.equal(fresh.body.data.percent, 24);
  assert.equal((await stored(tax.id)).rate, '0.240000');

  const byRate = await t.request('PATCH', `/taxes/${tax.id}`, {
    body: { rate: 0.075 },
    headers: { 'if-match': fresh.headers.get('etag')! },
  });
  assert.equal(byRate.status, 200);
  assert.equal(byRate.body.data.percent, 7.5);

  const twentyTwo = await t.request('PATCH', `/taxes/${tax.id}`, { body: { rate: 22 }, headers: { 'if-match': '*' } });
  assert.equal(twentyTwo.status, 400);
  assert.equal(twentyTwo.body.error.details.field, 'rate');
  const mismatch = await t.request('PATCH', `/taxes/${tax.id}`, {
    body: { rate: 0.1, percent: 11 },
    headers: { 'if-match': '*' },
  });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.body.error.details.reason, 'RATE_PERCENT_MISMATCH');
  assert.equal((await stored(tax.id)).rate, '0.075000');
});

test('PATCH with an empty body answers the tax unchanged; no DELETE route exists', async () => {
  const tax = await createTax({ name: 'Still', rate: 0.1 });
  const same = await t.request('PATCH', `/taxes/${tax.id}`, { body: {} });
  assert.equal(same.status, 200);
  assert.equal(same.body.data.updated_at, tax.updated_at);
  const del = await t.request('DELETE', `/taxes/${tax.id}`);
  assert.equal(del.status, 404);
  assert.equal((await stored(tax.id)).name, 'Still');
});
