import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { contractKit } from './support.ts';

/** A create or preview row refused for its shape is named by row_index like any other refused row (decision 0049). */
const t = await createTestApp();
const kit = contractKit(t);
const other = await t.newTenant({ name: 'Other Co' });
const client = await kit.client('Alpha');
const foreignTax = await kit.tax('0.10', 'active', other);

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

test('rows refused for their shape (wrong type, unknown field, not an object) are named by row_index too', async () => {
  const [contractsBefore, rowsBefore] = [await contractCount(), await rowCount()];
  const rows = [
    { description: 'fine', net_price: 10 },
    { quantity: 'not-a-number', net_price: 1 },
    { net_price: 5, colour: 'red' },
    'just text',
    { product_id: 'abc' },
    { description: 'a\u0000b' },
    { tax_id: foreignTax, net_price: 1 },
    null,
    { discount_rate: 5, net_price: true },
  ];
  const expected = [
    [1, 'VALIDATION_ERROR', 'quantity'],
    [2, 'VALIDATION_ERROR', 'colour'],
    [3, 'VALIDATION_ERROR', undefined],
    [4, 'VALIDATION_ERROR', 'product_id'],
    [5, 'VALIDATION_ERROR', 'description'],
    [6, 'INVALID_TAX', 'tax_id'],
    [7, 'VALIDATION_ERROR', undefined],
    [8, 'VALIDATION_ERROR', 'net_price'],
  ];
  const shape = (list: Array<{ row_index: number; code: string; field?: string }>) =>
    list.map((r) => [r.row_index, r.code, r.field]);
  const res = await t.request('POST', '/contracts', { body: { name: 'Shapes', client_id: client, rows } });
  assert.equal(res.status, 422, res.text);
  assert.equal(res.body.error.code, 'CONTRACT_ROWS_REJECTED');
  assert.deepEqual(shape(res.body.error.details.rejections), expected);
  assert.match(res.body.error.details.rejections[0].message, /quantity must be number/);
  assert.match(res.body.error.details.rejections[1].message, /colour is not a known field/);
  assert.match(res.body.error.details.rejections[2].message, /must be object/);
  assert.equal(await contractCount(), contractsBefore);
  assert.equal(await rowCount(), rowsBefore);

  const preview = await t.request('POST', '/contracts/preview', { body: { name: 'Shapes', client_id: client, rows } });
  assert.equal(preview.status, 200, preview.text);
  assert.equal(preview.body.data.would_create, false);
  assert.deepEqual(shape(preview.body.data.rejections), expected);
  assert.deepEqual(
    preview.body.data.rows.map((r: { row_index: number }) => r.row_index),
    [0],
  );
  assert.equal(await contractCount(), contractsBefore);
  assert.equal(await rowCount(), rowsBefore);

  const header = await t.request('POST', '/contracts', { body: { client_id: client, rows } });
  assert.equal(header.status, 400, 'a header problem is still the whole body');
  assert.equal(header.body.error.code, 'VALIDATION_ERROR');
  const notList = await t.request('POST', '/contracts', { body: { name: 'X', client_id: client, rows: { a: 1 } } });
  assert.equal(notList.status, 400);
  assert.equal(notList.body.error.code, 'VALIDATION_ERROR');
  // What reaches the service stays bounded like any free-form JSON: a row nested past 5 levels is the body's 400.
  const deep = JSON.parse(`${'{"a":'.repeat(6)}1${'}'.repeat(6)}`);
  const tooDeep = await t.request('POST', '/contracts', { body: { name: 'X', client_id: client, rows: [deep] } });
  assert.equal(tooDeep.status, 400);
  assert.match(tooDeep.body.error.message, /rows\.0 must not nest deeper than 5 levels/);
  assert.equal(await contractCount(), contractsBefore);
});
