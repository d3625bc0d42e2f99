import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { productKit } from './support.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const kit = productKit(t);

const MONEY = [
  'unit',
  'pricelist_type',
  'bill_by',
  'billable_filter',
  'tax_id',
  'tax_rate',
  'tax_name',
  'article_id',
  'resource_id',
  'billing_project_id',
] as const;

const vat = await kit.tax({ name: 'VAT 22', rate: 0.22 });
const consulting = await kit.topic('Consulting');
// article_id, resource_id and billing_project_id must name live product fields of their kind (issue 13).
const productField = async (kind: string) => {
  const res = await t.request('POST', '/product-fields', { body: { kind, code: `${kind}-1`, name: kind } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as number;
};
const [article, resource, billingProject] = [
  await productField('article'),
  await productField('resource'),
  await productField('billing_project'),
];
const full = {
  name: 'Bookkeeping hour',
  status: 'active',
  type: 'time',
  type_args: { rounding_min: 15, minimum_min: 30 },
  unit: 'h',
  pricelist_type: 'general',
  bill_by: 'hour',
  billable_filter: 'billable',
  topics: [consulting],
  translations: { et: { name: 'Raamatupidamise tund', description: 'Tunnitasu' }, 'en-GB': { name: 'Hour' } },
  tax_id: vat,
  article_id: article,
  resource_id: resource,
  billing_project_id: billingProject,
  ext_variable: 'ACC-1',
};

async function stored(id: number) {
  return t.db.db
    .selectFrom('products')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

test('POST (admin) stores every field; tax_rate and tax_name come from the tax record', async () => {
  const res = await t.request('POST', '/products', { body: full });
  assert.equal(res.status, 201, res.text);
  const p = res.body.data;
  const { tax_rate, tax_name, prices, id, created_at, updated_at, ...fields } = p;
  assert.deepEqual(fields, full);
  assert.equal(tax_rate, 0.22);
  assert.equal(tax_name, 'VAT 22');
  assert.deepEqual(prices, []);
  assert.ok(id > 0 && created_at.endsWith('Z'));
  assert.equal(res.headers.get('etag'), `"${updated_at}"`);
  const row = await stored(id);
  assert.equal(row.type, 'time');
  assert.deepEqual(row.topics, [consulting]);
  assert.equal(row.tax_id, vat);

  const minimal = await kit.product({ name: 'Plain' });
  assert.equal(minimal.status, 'active');
  assert.equal(minimal.type, 'service');
  assert.deepEqual(minimal.topics, []);
  assert.equal(minimal.type_args, null);
  assert.equal(minimal.translations, null);
  assert.equal(minimal.tax_rate, null);
});

test('POST refuses foreign or inactive taxes, foreign topics, type_args of another type and bad shapes', async () => {
  const theirTax = await kit.tax({ name: 'Theirs', rate: 0.2 }, other);
  const inactiveTax = await kit.tax({ name: 'Old', rate: 0.18, status: 'inactive' });
  for (const taxId of [theirTax, inactiveTax, 2147483000]) {
    const res = await t.request('POST', '/products', { body: { name: 'Bad tax', tax_id: taxId } });
    assert.equal(res.status, 400, String(taxId));
    assert.equal(res.body.error.code, 'INVALID_TAX');
    assert.equal(res.body.error.details.field, 'tax_id');
  }
  const theirTopic = await kit.topic('Their topic', other);
  const topicRes = await t.request('POST', '/products', { body: { name: 'Bad', topics: [consulting, theirTopic] } });
  assert.equal(topicRes.status, 400);
  assert.equal(topicRes.body.error.code, 'VALIDATION_ERROR');
  assert.equal(topicRes.body.error.details.reason, 'INVALID_TOPIC');
  assert.deepEqual(topicRes.body.error.details.invalid_ids, [theirTopic]);

  const args = await t.request('POST', '/products', {
    body: { name: 'Bad', type: 'goods', type_args: { period: 'month' } },
  });
  assert.equal(args.status, 400);
  assert.equal(args.body.error.details.reason, 'INVALID_TYPE_ARGS');
  assert.equal(args.body.error.details.field, 'type_args');
  const serviceArgs = await t.request('POST', '/products', { body: { name: 'Bad', type_args: { sku: 'A1' } } });
  assert.equal(serviceArgs.body.error.details.reason, 'INVALID_TYPE_ARGS');

  for (const body of [
    { name: 'Bad', type: 'thing' },
    { name: 'Bad', bill_by: 'day' },
    { name: 'Bad', pricelist_type: 'x' },
    { name: 'Bad', billable_filter: 'some' },
    { name: 'Bad', type_args: { colour: 'red' } },
    { name: 'Bad', translations: { 'not a locale': { name: 'x' } } },
    { name: 'Bad', translations: { et: { title: 'x' } } },
    { name: 'Bad', topics: [1, 1] },
    { name: 'Bad', tax_rate: 0.2 },
    { name: 'Bad', prices: [] },
    { name: 'Bad', article_id: 'seven' },
  ]) {
    const res = await t.request('POST', '/products', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', JSON.stringify(body));
  }
  const count = await t.db.db
    .selectFrom('products')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', 'in', ['Bad', 'Bad tax'])
    .execute();
  assert.equal(count.length, 0);
});

test('POST and DELETE need admin; a write key gets 403 naming the tier', async () => {
  const post = await t.request('POST', '/products', { key: 'write', body: { name: 'No' } });
  assert.equal(post.status, 403);
  assert.equal(post.body.error.code, 'FORBIDDEN');
  assert.equal(post.body.error.details.required_scope, 'admin');
  const p = await kit.product({ name: 'Keep me' });
  const del = await t.request('DELETE', `/products/${p.id}`, { key: 'write' });
  assert.equal(del.status, 403);
  assert.equal((await stored(p.id)).deleted_at, null);
});

test('reads are open to read keys with the money fields nulled and prices []', async () => {
  const p = await kit.product({ ...full, name: 'Nulled for readers' });
  await kit.price(p.id, { net_price: 80 });
  for (const key of ['read', 'write', 'personal']) {
    const one = await t.request('GET', `/products/${p.id}`, { key });
    assert.equal(one.status, 200, key);
    for (const field of MONEY) assert.equal(one.body.data[field], null, `${key} ${field}`);
    assert.deepEqual(one.body.data.prices, []);
    assert.equal(one.body.data.name, 'Nulled for readers');
    assert.deepEqual(one.body.data.topics, [consulting]);
    assert.deepEqual(one.body.data.translations, full.translations);
    const list = await t.request('GET', '/products?q=nulled', { key });
    assert.equal(list.body.data.length, 1);
    assert.equal(list.body.data[0].tax_rate, null);
    assert.deepEqual(list.body.data[0].prices, []);
  }
  const admin = await t.request('GET', `/products/${p.id}`);
  assert.equal(admin.body.data.unit, 'h');
  assert.equal(admin.body.data.tax_name, 'VAT 22');
  assert.equal(admin.body.data.prices.length, 1);
  assert.equal(admin.body.data.prices[0].net_price, 80);
});

test('GET lists with status, type and q filters in offset and cursor mode', async () => {
  const made = [];
  for (const [name, type, status] of [
    ['Filter goods A', 'goods', 'active'],
    ['Filter goods B', 'goods', 'inactive'],
    ['Filter sub', 'subscription', 'active'],
  ])
    made.push(await kit.product({ name, type, status }));
  const theirs = await kit.product({ name: 'Filter theirs', type: 'goods' }, other);
  const goods = await t.request('GET', '/products?type=goods&q=filter', { key: 'read' });
  assert.deepEqual(
    goods.body.data.map((p: { id: number }) => p.id),
    [made[0].id, made[1].id],
  );
  const active = await t.request('GET', '/products?type=goods,subscription&status=active&q=filter', { key: 'read' });
  assert.deepEqual(
    active.body.data.map((p: { id: number }) => p.id),
    [made[0].id, made[2].id],
  );
  const page1 = await t.request('GET', '/products?q=filter&limit=2&sort=-name', { key: 'read' });
  assert.equal(page1.body.meta.has_more, true);
  const page2 = await t.request('GET', `/products?cursor=${page1.body.meta.next_cursor}`, { key: 'read' });
  const names = [...page1.body.data, ...page2.body.data].map((p: { name: string }) => p.name);
  assert.deepEqual(names, ['Filter sub', 'Filter goods B', 'Filter goods A']);
  assert.ok(![...page1.body.data, ...page2.body.data].some((p: { id: number }) => p.id === theirs.id));
  const bad = await t.request('GET', '/products?type=thing', { key: 'read' });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
  const unknown = await t.request('GET', '/products?tax_id=1', { key: 'read' });
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const cursor = await t.request('GET', '/products?cursor=x.y', { key: 'read' });
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  const theirsRes = await t.request('GET', `/products/${theirs.id}`, { key: 'read' });
  assert.equal(theirsRes.status, 404);
  assert.equal(theirsRes.body.error.code, 'NOT_FOUND');
});

test('PATCH with a write key changes plain fields; money fields need financials (403 naming them)', async () => {
  const p = await kit.product({ name: 'Patch me', unit: 'pcs' });
  const plain = await t.request('PATCH', `/products/${p.id}`, {
    key: 'write',
    body: { name: 'Patched', translations: { fi: { name: 'Paikattu' } }, topics: [consulting], ext_variable: 'x' },
  });
  assert.equal(plain.status, 200, plain.text);
  assert.equal(plain.body.data.name, 'Patched');
  assert.equal(plain.body.data.unit, null, 'still nulled for the write key');
  assert.equal((await stored(p.id)).unit, 'pcs');

  const money = await t.request('PATCH', `/products/${p.id}`, {
    key: 'write',
    body: { name: 'Sneaky', unit: 'h', tax_id: vat },
  });
  assert.equal(money.status, 403);
  assert.equal(money.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
  assert.deepEqual(money.body.error.details.fields, ['unit', 'tax_id']);
  assert.equal((await stored(p.id)).name, 'Patched');

  const member = await t.request('PATCH', `/products/${p.id}`, { key: 'personal', body: { name: 'Member' } });
  assert.equal(member.status, 403);
  assert.equal(member.body.error.code, 'FORBIDDEN');

  const admin = await t.request('PATCH', `/products/${p.id}`, { body: { unit: 'h', tax_id: vat, bill_by: 'hour' } });
  assert.equal(admin.status, 200, admin.text);
  assert.equal(admin.body.data.unit, 'h');
  assert.equal(admin.body.data.tax_rate, 0.22);
  const cleared = await t.request('PATCH', `/products/${p.id}`, { body: { tax_id: null } });
  assert.equal(cleared.body.data.tax_rate, null);
  assert.equal(cleared.body.data.tax_name, null);
});

test('PATCH checks references, type_args against the resulting type, status and If-Match', async () => {
  const p = await kit.product({ name: 'Typed', type: 'subscription', type_args: { period: 'year' } });
  const theirTax = await kit.tax({ name: 'Theirs', rate: 0.2 }, other);
  const tax = await t.request('PATCH', `/products/${p.id}`, { body: { tax_id: theirTax } });
  assert.equal(tax.status, 400);
  assert.equal(tax.body.error.code, 'INVALID_TAX');
  const retype = await t.request('PATCH', `/products/${p.id}`, { body: { type: 'goods' } });
  assert.equal(retype.status, 400);
  assert.equal(retype.body.error.details.reason, 'INVALID_TYPE_ARGS');
  const both = await t.request('PATCH', `/products/${p.id}`, { body: { type: 'goods', type_args: { sku: 'G-1' } } });
  assert.equal(both.status, 200, both.text);
  assert.deepEqual(both.body.data.type_args, { sku: 'G-1' });

  const stale = await t.request('PATCH', `/products/${p.id}`, {
    body: { status: 'inactive' },
    headers: { 'if-match': `"${p.updated_at}"` },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  const retired = await t.request('PATCH', `/products/${p.id}`, {
    body: { status: 'inactive' },
    headers: { 'if-match': both.headers.get('etag')! },
  });
  assert.equal(retired.status, 200);
  assert.equal(retired.body.data.status, 'inactive');

  const theirs = await kit.product({ name: 'Theirs' }, other);
  const foreign = await t.request('PATCH', `/products/${theirs.id}`, { body: { name: 'Mine' } });
  assert.equal(foreign.status, 404);
});

test('DELETE: 409 PRODUCT_IN_USE while a live contract row or any invoice row uses it; else soft delete', async () => {
  const byContract = await kit.product({ name: 'On a contract' });
  const contractId = await kit.contractUsing(byContract.id);
  const refused = await t.request('DELETE', `/products/${byContract.id}`);
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'PRODUCT_IN_USE');
  assert.equal(refused.body.error.details.contract_rows, true);
  assert.equal((await stored(byContract.id)).deleted_at, null);
  // A deleted contract's rows no longer hold the product.
  await t.db.db
    .updateTable('contracts')
    .set({ deleted_at: new Date().toISOString() })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', contractId)
    .execute();
  const freed = await t.request('DELETE', `/products/${byContract.id}`);
  assert.equal(freed.status, 204);

  const byInvoice = await kit.product({ name: 'On an invoice' });
  await kit.invoiceUsing(byInvoice.id);
  const invoiced = await t.request('DELETE', `/products/${byInvoice.id}`);
  assert.equal(invoiced.status, 409);
  assert.equal(invoiced.body.error.code, 'PRODUCT_IN_USE');
  assert.equal(invoiced.body.error.details.invoice_rows, true);

  const free = await kit.product({ name: 'Free to go' });
  const gone = await t.request('DELETE', `/products/${free.id}`);
  assert.equal(gone.status, 204);
  assert.notEqual((await stored(free.id)).deleted_at, null);
  assert.equal((await t.request('GET', `/products/${free.id}`)).status, 404);
  assert.equal((await t.request('DELETE', `/products/${free.id}`)).status, 404);
  const list = await t.request('GET', '/products?q=free%20to');
  assert.equal(list.body.data.length, 0);

  const theirs = await kit.product({ name: 'Theirs' }, other);
  assert.equal((await t.request('DELETE', `/products/${theirs.id}`)).status, 404);
});

test('POST is idempotent with Idempotency-Key', async () => {
  const headers = { 'idempotency-key': 'product-create-1' };
  const first = await t.request('POST', '/products', { headers, body: { name: 'Once' } });
  const second = await t.request('POST', '/products', { headers, body: { name: 'Once' } });
  assert.equal(first.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.body.data.id, first.body.data.id);
});
