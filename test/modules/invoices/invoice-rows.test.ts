import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Decimal } from 'decimal.js';
import { createTestApp } from '../../helpers.ts';
import { invoiceFixtures } from './support.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const f = invoiceFixtures(t);

const clientId = await f.client();
const vat = await f.tax('VAT 22', '0.22');
const reduced = await f.tax('VAT 9', '0.09');
const otherTax = await f.tax('Foreign VAT', '0.2', other);
const otherClient = await f.client({ name: 'Foreign' }, other);
const otherProduct = await f.product({}, other);

const draft = (rows: unknown[] = [], extra: Record<string, unknown> = {}) =>
  f.invoice({ client_id: clientId, invoice_date: '2026-06-15', rows, ...extra });
const rowsUrl = (invoiceId: number) => `/invoices/${invoiceId}/rows`;

test('rule 1 and 2: tax comes from tax_id alone; sent tax_rate (even 22), tax_name and tax_sum are ignored', async () => {
  const inv = await draft();
  const res = await t.request('POST', rowsUrl(inv.id), {
    body: {
      description: 'Work',
      quantity: 2,
      net_price: 50,
      tax_id: vat,
      tax_rate: 22,
      tax_name: 'Fake',
      tax_sum: 999,
      net_sum: 1,
    },
  });
  assert.equal(res.status, 201, res.text);
  const row = res.body.data;
  assert.deepEqual([row.tax_id, row.tax_rate, row.tax_name, row.net_sum, row.tax_sum], [vat, 0.22, 'VAT 22', 100, 22]);
  assert.equal(res.headers.get('etag'), `"${row.updated_at}"`);
  const noTax = await t.request('POST', rowsUrl(inv.id), { body: { net_price: 10, tax_rate: 0.5, tax_sum: 5 } });
  assert.deepEqual(
    [noTax.body.data.tax_id, noTax.body.data.tax_rate, noTax.body.data.tax_name, noTax.body.data.tax_sum],
    [null, null, null, 0],
  );
  const stored = await f.storedRows(inv.id);
  assert.deepEqual(
    stored.map((r) => [r.tax_rate, r.tax_sum]),
    [
      ['0.220000', '22.00'],
      [null, '0.00'],
    ],
  );
  const invoice = await f.stored(inv.id);
  assert.deepEqual([invoice.net_sum, invoice.tax_sum, invoice.total_sum], ['110.00', '22.00', '132.00']);
});

test('rule 3: net_sum = quantity × net_price − discount, each row rounded half up to the cent', async () => {
  const inv = await draft([
    { quantity: 3, net_price: 19.99, discount_rate: 10, tax_id: vat },
    { quantity: 0.5, net_price: 0.01 },
    { quantity: 1.2345, net_price: 3.3333, tax_id: reduced },
    { quantity: 1, net_price: -25 },
  ]);
  const sums = inv.rows.map((r: { net_sum: number; tax_sum: number }) => [r.net_sum, r.tax_sum]);
  // 59.97 − 5.997 = 53.973 → 53.97; tax 11.8734 → 11.87. 0.005 → 0.01. 4.11495885 → 4.11; 0.3699 → 0.37.
  assert.deepEqual(sums, [
    [53.97, 11.87],
    [0.01, 0],
    [4.11, 0.37],
    [-25, 0],
  ]);
  assert.deepEqual([inv.net_sum, inv.tax_sum, inv.total_sum], [33.09, 12.24, 45.33]);
});

test('a product fills the omitted price (effective on the invoice date, in its currency), description and unit', async () => {
  const product = await f.product({ name: 'Audit', unit: 'pcs' });
  await f.price(product, '100', '2000-01-01');
  await f.price(product, '120', '2026-06-01');
  await f.price(product, '150', '2026-07-01');
  await f.price(product, '999', '2026-06-10', 'USD');
  const inv = await draft([{ product_id: product, quantity: 2 }]);
  assert.deepEqual(
    [inv.rows[0].net_price, inv.rows[0].description, inv.rows[0].unit, inv.rows[0].net_sum],
    [120, 'Audit', 'pcs', 240],
  );
  const usd = await draft([{ product_id: product }], { currency: 'USD' });
  assert.equal(usd.rows[0].net_price, 999);
  const early = await f.invoice({ client_id: clientId, invoice_date: '2020-01-01', rows: [{ product_id: product }] });
  assert.equal(early.rows[0].net_price, 100);
  const own = await draft([{ product_id: product, net_price: 7, description: 'Own text', unit: null }]);
  assert.deepEqual([own.rows[0].net_price, own.rows[0].description, own.rows[0].unit], [7, 'Own text', null]);
  const unpriced = await f.product({ name: 'No price' });
  const refused = await t.request('POST', rowsUrl(inv.id), { body: { product_id: unpriced } });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.details.reason, 'PRICE_REQUIRED');
  assert.equal(refused.body.error.details.field, 'net_price');
});

test('row writes refuse references outside the company: INVALID_TAX, INVALID_PRODUCT, INVALID_PERSON, INVALID_CLIENT', async () => {
  const inv = await draft([{ net_price: 1 }]);
  const rowId = inv.rows[0].id;
  const deletedProduct = await f.product({ deleted_at: new Date().toISOString() });
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ net_price: 1, tax_id: otherTax }, 'INVALID_TAX', 'tax_id'],
    [{ net_price: 1, tax_id: 2147483000 }, 'INVALID_TAX', 'tax_id'],
    [{ product_id: otherProduct }, 'INVALID_PRODUCT', 'product_id'],
    [{ product_id: deletedProduct, net_price: 1 }, 'INVALID_PRODUCT', 'product_id'],
    [{ net_price: 1, person_id: other.memberPersonId }, 'INVALID_PERSON', 'person_id'],
    [{ net_price: 1, original_client_id: otherClient }, 'INVALID_CLIENT', 'original_client_id'],
  ];
  for (const [body, code, field] of cases) {
    for (const [method, url] of [
      ['POST', rowsUrl(inv.id)],
      ['PATCH', `${rowsUrl(inv.id)}/${rowId}`],
    ] as const) {
      const res = await t.request(method, url, { body });
      assert.equal(res.status, 400, `${method} ${JSON.stringify(body)}`);
      assert.equal(res.body.error.code, code);
      assert.equal(res.body.error.details.field, field);
    }
  }
  assert.equal((await f.storedRows(inv.id)).length, 1);
  const person = await t.request('POST', rowsUrl(inv.id), {
    body: { net_price: 1, person_id: t.tenant.memberPersonId, completed_at: '2026-06-14T10:00:00Z', ext_variable: 'v' },
  });
  assert.equal(person.status, 201);
  assert.equal(person.body.data.person_id, t.tenant.memberPersonId);
  assert.equal(person.body.data.completed_at, '2026-06-14T10:00:00.000Z');
});

test('PATCH recomputes the row and the invoice totals; If-Match is optional and checked against the row', async () => {
  const inv = await draft([
    { quantity: 1, net_price: 10, tax_id: vat },
    { quantity: 1, net_price: 5 },
  ]);
  const [row] = inv.rows;
  const url = `${rowsUrl(inv.id)}/${row.id}`;
  const patched = await t.request('PATCH', url, { body: { quantity: 3, discount_rate: 50 } });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual([patched.body.data.net_sum, patched.body.data.tax_sum, patched.body.data.tax_id], [15, 3.3, vat]);
  assert.equal(patched.body.warnings, undefined);
  const afterPatch = (await t.request('GET', `/invoices/${inv.id}`)).body.data;
  assert.deepEqual([afterPatch.net_sum, afterPatch.tax_sum, afterPatch.total_sum], [20, 3.3, 23.3]);
  assert.notEqual(afterPatch.updated_at, inv.updated_at, "a row write moves the invoice's version on");
  const stale = await t.request('PATCH', url, {
    body: { quantity: 1 },
    headers: { 'if-match': `"${row.updated_at}"` },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  const fresh = await t.request('PATCH', url, {
    body: { tax_id: null },
    headers: { 'if-match': patched.headers.get('etag')! },
  });
  assert.equal(fresh.status, 200);
  assert.deepEqual([fresh.body.data.tax_id, fresh.body.data.tax_rate, fresh.body.data.tax_sum], [null, null, 0]);
  const empty = await t.request('PATCH', url, { body: {} });
  assert.equal(empty.body.data.updated_at, fresh.body.data.updated_at, 'an empty PATCH writes nothing');
  const unknown = await t.request('PATCH', url, { body: { invoice_id: 5 } });
  assert.equal(unknown.status, 400);
  assert.match(unknown.body.error.message + JSON.stringify(unknown.body.error.details), /invoice_id/);
  const bad = await t.request('PATCH', url, { body: { quantity: 0.00001 } });
  assert.equal(bad.body.error.details.field, 'quantity');
});

test('rows are reached only through their own invoice; GET lists and reads them; DELETE recomputes the totals', async () => {
  const a = await draft([{ net_price: 1 }, { net_price: 2 }, { net_price: 4 }]);
  const b = await draft([{ net_price: 8 }]);
  const wrong = await t.request('GET', `${rowsUrl(b.id)}/${a.rows[0].id}`);
  assert.equal(wrong.status, 404);
  assert.equal(wrong.body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('PATCH', `${rowsUrl(b.id)}/${a.rows[0].id}`, { body: { quantity: 2 } })).status, 404);
  assert.equal((await t.request('DELETE', `${rowsUrl(b.id)}/${a.rows[0].id}`)).status, 404);
  assert.equal((await t.request('POST', rowsUrl(2147483000), { body: { net_price: 1 } })).status, 404);
  assert.equal((await t.request('GET', rowsUrl(2147483000))).status, 404);
  assert.equal((await t.request('GET', rowsUrl(a.id), { tenant: other })).status, 404);
  const list = await t.request('GET', `${rowsUrl(a.id)}?limit=2`);
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.data.map((r: { net_price: number }) => r.net_price),
    [1, 2],
  );
  assert.deepEqual([list.body.meta.total, list.body.meta.has_more], [3, true]);
  assert.equal((await t.request('GET', `${rowsUrl(a.id)}?cursor=abc`)).body.error.code, 'INVALID_CURSOR');
  assert.equal((await t.request('GET', `${rowsUrl(a.id)}?status=x`)).body.error.code, 'UNKNOWN_FILTER_FIELD');
  const one = await t.request('GET', `${rowsUrl(a.id)}/${a.rows[1].id}`);
  assert.deepEqual(one.body.data, a.rows[1]);
  assert.equal(one.headers.get('etag'), `"${a.rows[1].updated_at}"`);
  const staleDelete = await t.request('DELETE', `${rowsUrl(a.id)}/${a.rows[1].id}`, {
    headers: { 'if-match': '"2001-01-01T00:00:00.000Z"' },
  });
  assert.equal(staleDelete.status, 412);
  const del = await t.request('DELETE', `${rowsUrl(a.id)}/${a.rows[1].id}`, {
    headers: { 'if-match': one.headers.get('etag')! },
  });
  assert.equal(del.status, 204);
  assert.equal(del.text, '');
  assert.equal((await f.stored(a.id)).total_sum, '5.00');
  assert.equal((await t.request('GET', `${rowsUrl(a.id)}/${a.rows[1].id}`)).status, 404);
  const events = (await f.events(a.id)).map((e) => e.event);
  assert.deepEqual(events, ['invoice.created', 'invoice.updated']);
});

test('200 rows add up exactly: the stored totals equal the exact decimal sums of the rounded rows', async () => {
  const rows = Array.from({ length: 200 }, (_, i) => ({
    quantity: Number(((i % 7) + 0.3333).toFixed(4)),
    net_price: Number((0.0149 + i * 1.1111).toFixed(4)),
    discount_rate: i % 3 === 0 ? 12.5 : 0,
    tax_id: i % 2 === 0 ? vat : reduced,
  }));
  const inv = await draft(rows);
  assert.equal(inv.rows.length, 200);
  assert.equal(inv.rows_truncated, false);
  const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
  let net = new D(0);
  let tax = new D(0);
  rows.forEach((row, i) => {
    const gross = new D(String(row.quantity)).times(String(row.net_price));
    const rowNet = gross.minus(gross.times(row.discount_rate).dividedBy(100)).toDecimalPlaces(2);
    const rowTax = rowNet.times(row.tax_id === vat ? '0.22' : '0.09').toDecimalPlaces(2);
    assert.equal(inv.rows[i].net_sum, rowNet.toNumber(), `row ${i} net`);
    assert.equal(inv.rows[i].tax_sum, rowTax.toNumber(), `row ${i} tax`);
    net = net.plus(rowNet);
    tax = tax.plus(rowTax);
  });
  const stored = await f.stored(inv.id);
  assert.equal(stored.net_sum, net.toFixed(2));
  assert.equal(stored.tax_sum, tax.toFixed(2));
  assert.equal(stored.total_sum, net.plus(tax).toFixed(2));
  assert.equal(inv.total_sum, net.plus(tax).toNumber());
  // A 201st row (through the rows route) is stored, and the read says the inlined list is truncated.
  assert.equal((await t.request('POST', rowsUrl(inv.id), { body: { net_price: 1 } })).status, 201);
  const read = (await t.request('GET', `/invoices/${inv.id}`)).body.data;
  assert.equal(read.rows.length, 200);
  assert.equal(read.rows_truncated, true);
  assert.equal(read.rows[0].id, inv.rows[0].id, 'the oldest rows are inlined');
  assert.equal(read.total_sum, net.plus(tax).plus(1).toNumber());
});

test('zero-decimal currencies round rows to whole units', async () => {
  const inv = await draft([{ quantity: 3, net_price: 33.5, tax_id: vat }], { currency: 'JPY' });
  assert.deepEqual([inv.rows[0].net_sum, inv.rows[0].tax_sum, inv.total_sum], [101, 22, 123]);
});
