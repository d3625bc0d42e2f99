import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { priceOn } from '../../../src/modules/products/index.ts';
import type { Ctx } from '../../../src/platform/context.ts';
import { productKit } from './support.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const kit = productKit(t);
const ctx = { db: t.db.db, companyId: t.tenant.companyId } as Ctx;

const storedPrice = (id: number) =>
  t.db.db
    .selectFrom('product_prices')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirst();

test('POST: active_from defaults to 2000-01-01, a supplied one is kept; the product inlines its prices', async () => {
  const p = await kit.product({ name: 'Priced' });
  const res = await t.request('POST', `/products/${p.id}/prices`, { body: { net_price: 12.3456 } });
  assert.equal(res.status, 201, res.text);
  const first = res.body.data;
  assert.deepEqual(
    { ...first, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      product_id: p.id,
      net_price: 12.3456,
      currency: null,
      active_from: '2000-01-01',
      created_at: '',
      updated_at: '',
    },
  );
  assert.equal(res.headers.get('etag'), `"${first.updated_at}"`);
  const row = await storedPrice(first.id);
  assert.equal(row?.net_price, '12.3456');
  assert.equal(row?.active_from, '2000-01-01');

  const later = await kit.price(p.id, { net_price: -5, currency: 'USD', active_from: '2026-03-01' });
  assert.equal(later.active_from, '2026-03-01');
  assert.equal(later.currency, 'USD');
  assert.equal(later.net_price, -5);

  const product = await t.request('GET', `/products/${p.id}`);
  assert.deepEqual(product.body.data.prices, [first, later]);
  assert.notEqual(product.body.data.updated_at, p.updated_at, 'the product version moves with its prices');
});

test('POST refuses too many decimals, out-of-range amounts, unknown currencies and a taken day', async () => {
  const p = await kit.product({ name: 'Strict' });
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ net_price: 1.23456 }, 'net_price', 'TOO_MANY_DECIMALS'],
    [{ net_price: 1e10 }, 'net_price', 'OUT_OF_RANGE'],
    [{ net_price: -1e10 }, 'net_price', 'OUT_OF_RANGE'],
    [{ net_price: 1e308 }, 'net_price', 'OUT_OF_RANGE'],
    [{ net_price: 1, currency: 'XQQ' }, 'currency', 'INVALID_CURRENCY'],
  ];
  for (const [body, field, reason] of cases) {
    const res = await t.request('POST', `/products/${p.id}/prices`, { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.field, field);
    assert.equal(res.body.error.details.reason, reason);
  }
  for (const body of [
    {},
    { net_price: '1' },
    { net_price: 1, currency: 'eur' },
    { net_price: 1, active_from: '2026-13-01' },
    { net_price: 1, id: 3 },
  ]) {
    const res = await t.request('POST', `/products/${p.id}/prices`, { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const max = await kit.price(p.id, { net_price: 9999999999.9999 });
  assert.equal(max.net_price, 9999999999.9999);
  const taken = await t.request('POST', `/products/${p.id}/prices`, { body: { net_price: 2 } });
  assert.equal(taken.status, 409);
  assert.equal(taken.body.error.code, 'PRICE_EXISTS');
  assert.equal(taken.body.error.details.price_id, max.id);
  const otherCurrency = await kit.price(p.id, { net_price: 2, currency: 'EUR' });
  assert.equal(otherCurrency.currency, 'EUR');
  const rows = await t.db.db
    .selectFrom('product_prices')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('product_id', '=', p.id)
    .execute();
  assert.equal(rows.length, 2);
});

test('GET list and one, PATCH (If-Match honoured), DELETE', async () => {
  const p = await kit.product({ name: 'Lifecycle' });
  const a = await kit.price(p.id, { net_price: 10, active_from: '2025-01-01' });
  const b = await kit.price(p.id, { net_price: 20 });
  const list = await t.request('GET', `/products/${p.id}/prices`);
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.body.data, [b, a]);
  assert.deepEqual(list.body.meta, { total: 2, limit: 50, offset: 0, has_more: false });
  const cursor = await t.request('GET', `/products/${p.id}/prices?cursor=abc`);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  const unknown = await t.request('GET', `/products/${p.id}/prices?currency=EUR`);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const one = await t.request('GET', `/products/${p.id}/prices/${a.id}`);
  assert.deepEqual(one.body.data, a);

  const stale = await t.request('PATCH', `/products/${p.id}/prices/${a.id}`, {
    body: { net_price: 11 },
    headers: { 'if-match': '"2001-01-01T00:00:00.000Z"' },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  const clash = await t.request('PATCH', `/products/${p.id}/prices/${a.id}`, { body: { active_from: '2000-01-01' } });
  assert.equal(clash.status, 409);
  assert.equal(clash.body.error.code, 'PRICE_EXISTS');
  const decimals = await t.request('PATCH', `/products/${p.id}/prices/${a.id}`, { body: { net_price: 0.00001 } });
  assert.equal(decimals.status, 400);
  assert.equal(decimals.body.error.details.field, 'net_price');
  const changed = await t.request('PATCH', `/products/${p.id}/prices/${a.id}`, {
    body: { net_price: 10.5, currency: 'SEK', active_from: '2000-01-01' },
    headers: { 'if-match': one.headers.get('etag')! },
  });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.data.net_price, 10.5);
  assert.equal(changed.body.data.currency, 'SEK');
  assert.equal((await storedPrice(a.id))?.net_price, '10.5000');

  const del = await t.request('DELETE', `/products/${p.id}/prices/${a.id}`);
  assert.equal(del.status, 204);
  assert.equal(await storedPrice(a.id), undefined);
  assert.equal((await t.request('GET', `/products/${p.id}/prices/${a.id}`)).status, 404);
  const last = await t.request('DELETE', `/products/${p.id}/prices/${b.id}`);
  assert.equal(last.status, 204, 'the last price of an unused product may go');
});

test('LAST_PRICE_REQUIRED: a product in use keeps at least one price', async () => {
  const p = await kit.product({ name: 'In use' });
  const a = await kit.price(p.id, { net_price: 10 });
  const b = await kit.price(p.id, { net_price: 12, active_from: '2026-01-01' });
  await kit.contractUsing(p.id);
  assert.equal((await t.request('DELETE', `/products/${p.id}/prices/${a.id}`)).status, 204);
  const refused = await t.request('DELETE', `/products/${p.id}/prices/${b.id}`);
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'LAST_PRICE_REQUIRED');
  assert.ok(await storedPrice(b.id));

  const invoiced = await kit.product({ name: 'Invoiced' });
  const only = await kit.price(invoiced.id, { net_price: 3 });
  await kit.invoiceUsing(invoiced.id);
  const refusedToo = await t.request('DELETE', `/products/${invoiced.id}/prices/${only.id}`);
  assert.equal(refusedToo.status, 409);
  assert.equal(refusedToo.body.error.code, 'LAST_PRICE_REQUIRED');
});

test('every price route needs the financials tier', async () => {
  const p = await kit.product({ name: 'Gated' });
  const price = await kit.price(p.id, { net_price: 1 });
  const calls: Array<[string, string, unknown]> = [
    ['GET', `/products/${p.id}/prices`, undefined],
    ['POST', `/products/${p.id}/prices`, { net_price: 2, active_from: '2030-01-01' }],
    ['GET', `/products/${p.id}/prices/${price.id}`, undefined],
    ['PATCH', `/products/${p.id}/prices/${price.id}`, { net_price: 3 }],
    ['DELETE', `/products/${p.id}/prices/${price.id}`, undefined],
  ];
  for (const key of ['read', 'write', 'personal', 'personalAdmin'])
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { key, body });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  assert.equal((await storedPrice(price.id))?.net_price, '1.0000');
});

test("another company's product or price, a price of another product, a deleted product: 404", async () => {
  const theirs = await kit.product({ name: 'Theirs' }, other);
  const theirPrice = await kit.price(theirs.id, { net_price: 5 }, other);
  const mine = await kit.product({ name: 'Mine' });
  const myPrice = await kit.price(mine.id, { net_price: 5 });
  const sibling = await kit.product({ name: 'Sibling' });
  const paths = [
    ['GET', `/products/${theirs.id}/prices`],
    ['POST', `/products/${theirs.id}/prices`],
    ['GET', `/products/${theirs.id}/prices/${theirPrice.id}`],
    ['GET', `/products/${mine.id}/prices/${theirPrice.id}`],
    ['GET', `/products/${sibling.id}/prices/${myPrice.id}`],
    ['PATCH', `/products/${sibling.id}/prices/${myPrice.id}`],
    ['DELETE', `/products/${sibling.id}/prices/${myPrice.id}`],
  ];
  for (const [method, path] of paths) {
    const body = method === 'POST' ? { net_price: 1 } : method === 'PATCH' ? { net_price: 2 } : undefined;
    const res = await t.request(method!, path!, { body });
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.equal((await storedPrice(myPrice.id))?.net_price, '5.0000');
  // The product is looked up before the body is validated: a foreign product is 404 whatever the body.
  const junk = await t.request('POST', `/products/${theirs.id}/prices`, { body: {} });
  assert.equal(junk.status, 404);
  assert.equal((await t.request('DELETE', `/products/${mine.id}`)).status, 204);
  assert.equal((await t.request('GET', `/products/${mine.id}/prices`)).status, 404);
  assert.equal((await t.request('GET', `/products/${mine.id}/prices/${myPrice.id}`)).status, 404);
});

test('priceOn answers the price effective on a day in a currency (null currency = company currency)', async () => {
  const p = await kit.product({ name: 'Over time' });
  await kit.price(p.id, { net_price: 100 });
  await kit.price(p.id, { net_price: 110, active_from: '2026-01-01' });
  await kit.price(p.id, { net_price: 105, currency: 'EUR', active_from: '2026-01-01' });
  await kit.price(p.id, { net_price: 90, currency: 'USD', active_from: '2025-06-01' });
  assert.equal(Number(await priceOn(ctx, p.id, '2025-12-31', 'EUR')), 100);
  assert.equal(Number(await priceOn(ctx, p.id, '2025-12-31')), 100);
  assert.equal(Number(await priceOn(ctx, p.id, '2026-01-01', 'EUR')), 105, 'an explicit currency wins on the same day');
  assert.equal(Number(await priceOn(ctx, p.id, '2026-06-30', null)), 105);
  assert.equal(Number(await priceOn(ctx, p.id, '2026-06-30', 'USD')), 90);
  assert.equal(await priceOn(ctx, p.id, '2025-05-31', 'USD'), undefined);
  assert.equal(await priceOn(ctx, p.id, '2026-06-30', 'SEK'), undefined);
  assert.equal(await priceOn(ctx, p.id, '1999-12-31', 'EUR'), undefined);
  const foreign = { db: t.db.db, companyId: other.companyId } as Ctx;
  assert.equal(await priceOn(foreign, p.id, '2026-06-30', 'EUR'), undefined);
});
