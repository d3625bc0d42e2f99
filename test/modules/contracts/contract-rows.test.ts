import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { contractKit } from './support.ts';

const t = await createTestApp();
const kit = contractKit(t);
const other = await t.newTenant({ name: 'Other Co' });
const client = await kit.client('Alpha');
const vat = await kit.tax('0.22');
const foreignTax = await kit.tax('0.10', 'active', other);
const product = await kit.product({ name: 'Licence', unit: 'pcs', price: '10' });
const retired = await kit.product({ name: 'Old', status: 'inactive', price: '1' });
const foreignProduct = await kit.product({ name: 'Theirs' }, other);

const contractPath = (id: number) => `/contracts/${id}`;
const storedStamp = async (id: number) =>
  (await kit.storedContracts()).find((c) => c.id === id)!.updated_at as unknown as string;

async function newContract() {
  return kit.contract({ name: 'Rows', client_id: client, rows: [{ description: 'first', net_price: 5 }] });
}

test("POST rows needs the contract's If-Match (428/412); a row is created and the contract's ETag moves", async () => {
  const c = await newContract();
  const path = `${contractPath(c.id)}/rows`;
  const body = { product_id: product, quantity: 3, net_price: 9.5 };
  const none = await t.request('POST', path, { body });
  assert.equal(none.status, 428);
  const stale = await t.request('POST', path, { body, headers: { 'if-match': '"2020-01-01T00:00:00.000Z"' } });
  assert.equal(stale.status, 412);
  assert.equal((await kit.storedRows(c.id)).length, 1);
  const res = await t.request('POST', path, { body, headers: { 'if-match': `"${c.updated_at}"` } });
  assert.equal(res.status, 201, res.text);
  const row = res.body.data;
  assert.equal(row.contract_id, c.id);
  assert.equal(row.description, 'Licence');
  assert.equal(row.unit, 'pcs');
  assert.equal(row.quantity, 3);
  assert.equal(row.net_price, 9.5);
  assert.equal(res.headers.get('etag'), `"${row.updated_at}"`);
  assert.notEqual(await storedStamp(c.id), c.updated_at);
  const list = await t.request('GET', path);
  assert.equal(list.body.meta.total, 2);
  assert.deepEqual(
    list.body.data.map((r: { id: number }) => r.id),
    [c.rows[0].id, row.id],
  );
  const one = await t.request('GET', `${path}/${row.id}`);
  assert.deepEqual(one.body.data, row);
});

test('POST rows refuses a foreign product or tax (400 INVALID_PRODUCT / INVALID_TAX) and bad amounts', async () => {
  const c = await newContract();
  const path = `${contractPath(c.id)}/rows`;
  const headers = { 'if-match': `"${c.updated_at}"` };
  const p = await t.request('POST', path, { body: { product_id: foreignProduct }, headers });
  assert.equal(p.status, 400);
  assert.equal(p.body.error.code, 'INVALID_PRODUCT');
  const x = await t.request('POST', path, { body: { tax_id: foreignTax }, headers });
  assert.equal(x.body.error.code, 'INVALID_TAX');
  const d = await t.request('POST', path, { body: { net_price: 0.00001 }, headers });
  assert.equal(d.body.error.code, 'VALIDATION_ERROR');
  assert.equal(d.body.error.details.reason, 'TOO_MANY_DECIMALS');
  assert.equal(d.body.error.details.field, 'net_price');
  assert.equal((await kit.storedRows(c.id)).length, 1);
  const warned = await t.request('POST', path, { body: { product_id: retired }, headers });
  assert.equal(warned.status, 201);
  assert.deepEqual(
    warned.body.warnings.map((w: { code: string }) => w.code),
    ['PRODUCT_INACTIVE'],
  );
});

test("PATCH and DELETE of a row need the row's own If-Match; each write moves the contract's ETag", async () => {
  const c = await newContract();
  const row = c.rows[0];
  const path = `${contractPath(c.id)}/rows/${row.id}`;
  assert.equal((await t.request('PATCH', path, { body: { quantity: 2 } })).status, 428);
  const added = await t.request('POST', `${contractPath(c.id)}/rows`, {
    body: { net_price: 1 },
    headers: { 'if-match': await kit.etagOf(contractPath(c.id)) },
  });
  assert.equal(added.status, 201, added.text);
  const contractEtag = await kit.etagOf(contractPath(c.id));
  const wrongEtag = await t.request('PATCH', path, { body: { quantity: 2 }, headers: { 'if-match': contractEtag } });
  assert.equal(wrongEtag.status, 412, "the contract's ETag is not the row's");
  const before = await storedStamp(c.id);
  const ok = await t.request('PATCH', path, {
    body: { quantity: 2, discount_rate: 10, tax_id: vat, description: 'changed' },
    headers: { 'if-match': `"${row.updated_at}"` },
  });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.quantity, 2);
  assert.equal(ok.body.data.discount_rate, 10);
  assert.equal(ok.body.data.tax_id, vat);
  assert.equal(ok.body.data.description, 'changed');
  assert.equal(ok.body.data.net_price, 5);
  assert.notEqual(await storedStamp(c.id), before);
  const okEtag = { 'if-match': ok.headers.get('etag')! };
  const bad = await t.request('PATCH', path, { body: { tax_id: foreignTax }, headers: okEtag });
  assert.equal(bad.body.error.code, 'INVALID_TAX');
  const badProduct = await t.request('PATCH', path, { body: { product_id: foreignProduct }, headers: okEtag });
  assert.equal(badProduct.body.error.code, 'INVALID_PRODUCT');
  const unpriced = await t.request('PATCH', path, { body: { net_price: null }, headers: okEtag });
  assert.deepEqual(
    unpriced.body.warnings.map((w: { code: string }) => w.code),
    ['ROW_WITHOUT_PRICE'],
  );
  assert.equal((await t.request('DELETE', path)).status, 428);
  const stale = await t.request('DELETE', path, { headers: { 'if-match': ok.headers.get('etag')! } });
  assert.equal(stale.status, 412);
  const mid = await storedStamp(c.id);
  const gone = await t.request('DELETE', path, { headers: { 'if-match': unpriced.headers.get('etag')! } });
  assert.equal(gone.status, 204);
  assert.equal((await kit.storedRows(c.id)).length, 1);
  assert.notEqual(await storedStamp(c.id), mid);
  assert.equal((await t.request('GET', path)).status, 404);
});

test("row prices: active_from defaults to 2000-01-01, the row lists them, If-Match is the row's", async () => {
  const c = await newContract();
  const row = c.rows[0];
  const path = `${contractPath(c.id)}/rows/${row.id}/prices`;
  assert.equal((await t.request('POST', path, { body: { net_price: 7 } })).status, 428);
  const first = await t.request('POST', path, {
    body: { net_price: 7 },
    headers: { 'if-match': `"${row.updated_at}"` },
  });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body.data.active_from, '2000-01-01');
  assert.equal(first.body.data.net_price, 7);
  assert.equal(first.body.data.contract_row_id, row.id);
  const stale = await t.request('POST', path, {
    body: { net_price: 8 },
    headers: { 'if-match': `"${row.updated_at}"` },
  });
  assert.equal(stale.status, 412, 'adding a price moved the row on');
  const rowEtag = await kit.etagOf(`${contractPath(c.id)}/rows/${row.id}`);
  const second = await t.request('POST', path, {
    body: { net_price: 8.1234, active_from: '2027-01-01' },
    headers: { 'if-match': rowEtag },
  });
  assert.equal(second.status, 201);
  const tooPrecise = await t.request('POST', path, {
    body: { net_price: 8.12345 },
    headers: { 'if-match': await kit.etagOf(`${contractPath(c.id)}/rows/${row.id}`) },
  });
  assert.equal(tooPrecise.status, 400);
  const read = await t.request('GET', `${contractPath(c.id)}/rows/${row.id}`);
  assert.deepEqual(
    read.body.data.prices.map((p: { net_price: number; active_from: string }) => [p.net_price, p.active_from]),
    [
      [7, '2000-01-01'],
      [8.1234, '2027-01-01'],
    ],
  );
  const stored = await t.db.db
    .selectFrom('contract_row_prices')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('contract_row_id', '=', row.id)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    stored.map((p) => p.net_price),
    ['7.0000', '8.1234'],
  );
  const contract = await t.request('GET', contractPath(c.id));
  assert.equal(contract.body.data.rows[0].prices.length, 2);
});

test('a row of another contract, or of another company, is 404 on every row route', async () => {
  const c1 = await newContract();
  const c2 = await newContract();
  const theirs = await kit.contract(
    { name: 'Theirs', client_id: await kit.client('F', other), rows: [{ net_price: 1 }] },
    other,
  );
  const headers = { 'if-match': '*' };
  const paths = [
    `/contracts/${c1.id}/rows/${c2.rows[0].id}`,
    `/contracts/${theirs.id}/rows/${theirs.rows[0].id}`,
    `/contracts/${c1.id}/rows/${theirs.rows[0].id}`,
  ];
  for (const path of paths) {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { junk: 1 }],
      ['DELETE', undefined],
    ] as const)
      assert.equal((await t.request(method, path, { body, headers })).status, 404, `${method} ${path}`);
    assert.equal((await t.request('POST', `${path}/prices`, { body: {}, headers })).status, 404);
  }
  assert.equal((await t.request('GET', `/contracts/${theirs.id}/rows`)).status, 404);
  assert.equal((await t.request('POST', `/contracts/${theirs.id}/rows`, { body: { x: 1 }, headers })).status, 404);
  assert.equal((await kit.storedRows(c2.id)).length, 1);
});

test('row routes are financial: read, write and personal keys get 403', async () => {
  const c = await newContract();
  const row = c.rows[0];
  for (const key of ['read', 'write', 'personal'])
    for (const [method, path, body] of [
      ['GET', `/contracts/${c.id}/rows`, undefined],
      ['POST', `/contracts/${c.id}/rows`, { net_price: 1 }],
      ['GET', `/contracts/${c.id}/rows/${row.id}`, undefined],
      ['PATCH', `/contracts/${c.id}/rows/${row.id}`, { quantity: 1 }],
      ['DELETE', `/contracts/${c.id}/rows/${row.id}`, undefined],
      ['POST', `/contracts/${c.id}/rows/${row.id}/prices`, { net_price: 1 }],
    ] as const) {
      const res = await t.request(method, path, { key, body, headers: { 'if-match': '*' } });
      assert.equal(res.status, 403, `${key} ${method} ${path}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
});

test('GET rows is an offset list: a cursor is 400 INVALID_CURSOR, an unknown parameter UNKNOWN_FILTER_FIELD', async () => {
  const c = await newContract();
  const cursor = await t.request('GET', `/contracts/${c.id}/rows?cursor=abc`);
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  const unknown = await t.request('GET', `/contracts/${c.id}/rows?product_id=1`);
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const page = await t.request('GET', `/contracts/${c.id}/rows?limit=1`);
  assert.deepEqual(page.body.meta, { total: 1, limit: 1, offset: 0, has_more: false });
});
