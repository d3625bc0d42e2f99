import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { contractKit } from './support.ts';

const t = await createTestApp();
const kit = contractKit(t);
const other = await t.newTenant({ name: 'Other Co' });
const client = await kit.client('Alpha');
const vat = await kit.tax('0.22');
const oldVat = await kit.tax('0.20', 'inactive');
const foreignTax = await kit.tax('0.10', 'active', other);
const hosting = await kit.product({ name: 'Hosting', unit: 'month', tax_id: vat, price: '49.90' });
const retired = await kit.product({ name: 'Retired', status: 'inactive', price: '5' });
const unpriced = await kit.product({ name: 'Unpriced' });
const foreignProduct = await kit.product({ name: 'Theirs' }, other);

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

const contractCount = async () => (await kit.storedContracts()).length;
const rowCount = async () =>
  Number(
    (
      await t.db.db
        .selectFrom('contract_rows')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('company_id', '=', t.tenant.companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

test('create with rows stores every row; product name, unit and tax fill what a row does not send', async () => {
  const res = await t.request('POST', '/contracts', {
    body: {
      name: 'With rows',
      client_id: client,
      rows: [
        { product_id: hosting },
        {
          description: 'Consulting',
          quantity: 2.5,
          net_price: 120.1234,
          discount_rate: 12.5,
          unit: 'h',
          invoice_time_min: 150,
          tax_id: null,
          article_id: article,
          resource_id: resource,
          billing_project_id: billingProject,
          ext_variable: 'X-1',
        },
      ],
    },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.warnings, undefined);
  const [a, b] = res.body.data.rows;
  assert.equal(a.description, 'Hosting');
  assert.equal(a.unit, 'month');
  assert.equal(a.tax_id, vat);
  assert.equal(a.quantity, 1);
  assert.equal(a.discount_rate, 0);
  assert.equal(a.net_price, null);
  assert.deepEqual(a.prices, []);
  assert.equal(a.contract_id, res.body.data.id);
  assert.deepEqual(
    { ...b, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      contract_id: res.body.data.id,
      description: 'Consulting',
      discount_rate: 12.5,
      product_id: null,
      quantity: 2.5,
      unit: 'h',
      invoice_time_min: 150,
      net_price: 120.1234,
      tax_id: null,
      article_id: article,
      resource_id: resource,
      billing_project_id: billingProject,
      ext_variable: 'X-1',
      prices: [],
      created_at: '',
      updated_at: '',
    },
  );
  const stored = await kit.storedRows(res.body.data.id);
  assert.equal(stored.length, 2);
  assert.equal(stored[1]!.net_price, '120.1234');
  assert.equal(stored[1]!.quantity, '2.5000');
  assert.equal(stored[1]!.discount_rate, '12.5000');
});

test('a create with good and bad rows is 422 CONTRACT_ROWS_REJECTED naming every bad row; nothing is written', async () => {
  const [contractsBefore, rowsBefore] = [await contractCount(), await rowCount()];
  const rows = [
    { description: 'fine', net_price: 10 },
    { product_id: foreignProduct },
    { description: 'fine too', quantity: 3, net_price: 1 },
    { tax_id: foreignTax, net_price: 1 },
    { net_price: 1.23456 },
    { quantity: -1, net_price: 1 },
    { discount_rate: 101, net_price: 1 },
    { invoice_time_min: -5, net_price: 1 },
    { net_price: 1e10 },
    { product_id: 2147483000 },
  ];
  const res = await t.request('POST', '/contracts', { body: { name: 'Mixed', client_id: client, rows } });
  assert.equal(res.status, 422, res.text);
  assert.equal(res.body.error.code, 'CONTRACT_ROWS_REJECTED');
  const rejections = res.body.error.details.rejections;
  assert.deepEqual(
    rejections.map((r: { row_index: number; code: string; field?: string }) => [r.row_index, r.code, r.field]),
    [
      [1, 'INVALID_PRODUCT', 'product_id'],
      [3, 'INVALID_TAX', 'tax_id'],
      [4, 'VALIDATION_ERROR', 'net_price'],
      [5, 'VALIDATION_ERROR', 'quantity'],
      [6, 'VALIDATION_ERROR', 'discount_rate'],
      [7, 'VALIDATION_ERROR', 'invoice_time_min'],
      [8, 'VALIDATION_ERROR', 'net_price'],
      [9, 'INVALID_PRODUCT', 'product_id'],
    ],
  );
  for (const r of rejections) assert.ok(r.message.length > 0);
  assert.equal(await contractCount(), contractsBefore);
  assert.equal(await rowCount(), rowsBefore);
});

test('201 rows is 400 VALIDATION_ERROR; 200 rows are created, 200 inlined, and rows_truncated turns on past 200', async () => {
  const row = { description: 'r', net_price: 1 };
  const before = await contractCount();
  const tooMany = await t.request('POST', '/contracts', {
    body: { name: 'Huge', client_id: client, rows: Array.from({ length: 201 }, () => row) },
  });
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.error.code, 'VALIDATION_ERROR');
  assert.equal(await contractCount(), before);
  const full = await kit.contract({ name: 'Full', client_id: client, rows: Array.from({ length: 200 }, () => row) });
  assert.equal(full.rows.length, 200);
  assert.equal(full.rows_truncated, false);
  await t.db.db
    .insertInto('contract_rows')
    .values({ company_id: t.tenant.companyId, contract_id: full.id, description: 'extra', net_price: '1' })
    .execute();
  const read = await t.request('GET', `/contracts/${full.id}`);
  assert.equal(read.body.data.rows.length, 200);
  assert.equal(read.body.data.rows_truncated, true);
  const rowsList = await t.request('GET', `/contracts/${full.id}/rows?limit=200&offset=200`);
  assert.equal(rowsList.body.meta.total, 201);
  assert.equal(rowsList.body.data[0].description, 'extra');
});

test('row warnings: inactive product, inactive tax, no price anywhere; the contract is still created', async () => {
  const res = await t.request('POST', '/contracts', {
    body: {
      name: 'Warned',
      client_id: client,
      rows: [{ product_id: retired }, { net_price: 5, tax_id: oldVat }, { product_id: unpriced }, { description: 'x' }],
    },
  });
  assert.equal(res.status, 201, res.text);
  const codes = res.body.warnings.map((w: { code: string; details: { row_index: number } }) => [
    w.code,
    w.details.row_index,
  ]);
  assert.deepEqual(codes, [
    ['PRODUCT_INACTIVE', 0],
    ['TAX_INACTIVE', 1],
    ['ROW_WITHOUT_PRICE', 2],
    ['ROW_WITHOUT_PRICE', 3],
  ]);
  assert.equal(JSON.parse(res.headers.get('x-service-warning')!).length, 4);
  assert.equal(res.body.data.rows.length, 4);
});

test('POST /contracts/preview: same checks, the rows as they would be stored, and nothing written', async () => {
  const [contractsBefore, rowsBefore] = [await contractCount(), await rowCount()];
  const activities = async () =>
    (await t.db.db.selectFrom('activities').select('id').where('company_id', '=', t.tenant.companyId).execute()).length;
  const auditBefore = await activities();
  const good = await t.request('POST', '/contracts/preview', {
    body: { name: 'Preview', client_id: client, rows: [{ product_id: hosting, quantity: 2 }, { product_id: retired }] },
  });
  assert.equal(good.status, 200, good.text);
  assert.equal(good.body.data.would_create, true);
  assert.deepEqual(good.body.data.rejections, []);
  assert.deepEqual(good.body.data.rows[0], {
    row_index: 0,
    description: 'Hosting',
    discount_rate: 0,
    product_id: hosting,
    quantity: 2,
    unit: 'month',
    invoice_time_min: null,
    net_price: null,
    tax_id: vat,
    article_id: null,
    resource_id: null,
    billing_project_id: null,
    ext_variable: null,
  });
  assert.equal(good.body.warnings[0].code, 'PRODUCT_INACTIVE');
  const bad = await t.request('POST', '/contracts/preview', {
    body: { name: 'Preview', client_id: client, rows: [{ net_price: 1 }, { product_id: foreignProduct }] },
  });
  assert.equal(bad.status, 200);
  assert.equal(bad.body.data.would_create, false);
  assert.deepEqual(
    bad.body.data.rejections.map((r: { row_index: number; code: string }) => [r.row_index, r.code]),
    [[1, 'INVALID_PRODUCT']],
  );
  assert.deepEqual(
    bad.body.data.rows.map((r: { row_index: number }) => r.row_index),
    [0],
  );
  const header = await t.request('POST', '/contracts/preview', { body: { name: 'P', client_id: 2147483000 } });
  assert.equal(header.status, 400);
  assert.equal(header.body.error.code, 'INVALID_CLIENT');
  const parent = await t.request('POST', '/contracts/preview', {
    body: { name: 'P', client_id: client, parent_id: 1 },
  });
  assert.equal(parent.body.error.code, 'INVALID_CONTRACT');
  assert.equal(await contractCount(), contractsBefore);
  assert.equal(await rowCount(), rowsBefore);
  assert.equal(await activities(), auditBefore);
});

test('create is idempotent with Idempotency-Key: the replay answers the same contract, one stored', async () => {
  const body = { name: 'Once', client_id: client, rows: [{ description: 'a', net_price: 1 }] };
  const headers = { 'idempotency-key': 'contract-once-1' };
  const first = await t.request('POST', '/contracts', { body, headers });
  const second = await t.request('POST', '/contracts', { body, headers });
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.body.data.id, first.body.data.id);
  assert.equal((await kit.storedContracts()).filter((c) => c.name === 'Once').length, 1);
  const reused = await t.request('POST', '/contracts', { body: { ...body, name: 'Twice' }, headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});
