import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

/** Products, contract rows and invoice rows reference product fields; the references are checked on write. */
const t = await createTestApp();
const other = await t.newTenant({ name: 'References Other Co' });

async function field(kind: string, code: string, extra: Record<string, unknown> = {}, tenant?: TenantFixture) {
  const res = await t.request('POST', '/product-fields', { body: { kind, code, name: code, ...extra }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as number;
}

const article = await field('article', 'A-1');
const resource = await field('resource', 'R-1');
const billingProject = await field('billing_project', 'BP-1');
const inactiveArticle = await field('article', 'A-OLD', { status: 'inactive' });
const foreignResource = await field('resource', 'R-1', {}, other);
const deletedProject = await field('billing_project', 'BP-GONE');
assert.equal((await t.request('DELETE', `/product-fields/${deletedProject}`)).status, 204);
const costCenter = await field('cost_center', 'CC-1');

const client = await t.request('POST', '/clients', { body: { name: 'Reference client' } });
assert.equal(client.status, 201, client.text);
const clientId = client.body.data.id as number;

/** Every way a reference can be wrong, and the code it answers. */
const BAD: Array<[Record<string, number>, string, string]> = [
  [{ article_id: resource }, 'INVALID_ARTICLE', 'article_id'],
  [{ article_id: inactiveArticle }, 'INVALID_ARTICLE', 'article_id'],
  [{ article_id: costCenter }, 'INVALID_ARTICLE', 'article_id'],
  [{ resource_id: foreignResource }, 'INVALID_RESOURCE', 'resource_id'],
  [{ resource_id: 2147483000 }, 'INVALID_RESOURCE', 'resource_id'],
  [{ billing_project_id: deletedProject }, 'INVALID_BILLING_PROJECT', 'billing_project_id'],
  [{ billing_project_id: article }, 'INVALID_BILLING_PROJECT', 'billing_project_id'],
];
const GOOD = { article_id: article, resource_id: resource, billing_project_id: billingProject };

test('products: references must be live, active product fields of their kind in the company', async () => {
  for (const [refs, code, fieldName] of BAD) {
    const res = await t.request('POST', '/products', { body: { name: 'Bad ref', ...refs } });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, code);
    assert.equal(res.body.error.details.field, fieldName);
  }
  const ok = await t.request('POST', '/products', { body: { name: 'Good refs', ...GOOD } });
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.body.data.article_id, article);
  const patched = await t.request('PATCH', `/products/${ok.body.data.id}`, { body: { resource_id: article } });
  assert.equal(patched.status, 400);
  assert.equal(patched.body.error.code, 'INVALID_RESOURCE');
  const cleared = await t.request('PATCH', `/products/${ok.body.data.id}`, { body: { resource_id: null } });
  assert.equal(cleared.status, 200, cleared.text);
  assert.equal(cleared.body.data.resource_id, null);
});

test('contract rows: a create with a bad reference is 422 naming the row; a row POST or PATCH is 400', async () => {
  const res = await t.request('POST', '/contracts', {
    body: { name: 'Refs', client_id: clientId, rows: [{ description: 'ok', ...GOOD }, { article_id: resource }] },
  });
  assert.equal(res.status, 422, res.text);
  assert.equal(res.body.error.code, 'CONTRACT_ROWS_REJECTED');
  assert.deepEqual(
    res.body.error.details.rejections.map((r: Record<string, unknown>) => [r.row_index, r.code, r.field]),
    [[1, 'INVALID_ARTICLE', 'article_id']],
  );
  const created = await t.request('POST', '/contracts', {
    body: { name: 'Refs ok', client_id: clientId, rows: [{ description: 'ok', ...GOOD }] },
  });
  assert.equal(created.status, 201, created.text);
  const contract = created.body.data;
  assert.equal(contract.rows[0].billing_project_id, billingProject);
  const row = await t.request('POST', `/contracts/${contract.id}/rows`, {
    body: { description: 'bad', billing_project_id: deletedProject },
    headers: { 'if-match': created.headers.get('etag')! },
  });
  assert.equal(row.status, 400, row.text);
  assert.equal(row.body.error.code, 'INVALID_BILLING_PROJECT');
  const first = contract.rows[0];
  const patched = await t.request('PATCH', `/contracts/${contract.id}/rows/${first.id}`, {
    body: { article_id: resource },
    headers: { 'if-match': `"${first.updated_at}"` },
  });
  assert.equal(patched.status, 400, patched.text);
  assert.equal(patched.body.error.code, 'INVALID_ARTICLE');
  const stored = await t.db.db
    .selectFrom('contract_rows')
    .select('article_id')
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', first.id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.article_id, article);
});

test('invoice rows: a bad reference is 400 naming rows[i].field; nothing is written', async () => {
  const invoices = async () =>
    (await t.db.db.selectFrom('invoices').select('id').where('company_id', '=', t.tenant.companyId).execute()).length;
  const before = await invoices();
  const res = await t.request('POST', '/invoices', {
    body: {
      client_id: clientId,
      rows: [
        { description: 'ok', quantity: 1, net_price: 10, ...GOOD },
        { description: 'bad', quantity: 1, net_price: 10, resource_id: foreignResource },
      ],
    },
  });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.code, 'INVALID_RESOURCE');
  assert.equal(res.body.error.details.field, 'rows[1].resource_id');
  assert.equal(await invoices(), before);
  const ok = await t.request('POST', '/invoices', {
    body: { client_id: clientId, rows: [{ description: 'ok', quantity: 1, net_price: 10, ...GOOD }] },
  });
  assert.equal(ok.status, 201, ok.text);
});

test('deleting an entry a live product or contract row uses is 409 PRODUCT_FIELD_IN_USE; inactive is the way out', async () => {
  const used = await field('article', 'A-USED');
  const product = await t.request('POST', '/products', { body: { name: 'Uses A-USED', article_id: used } });
  assert.equal(product.status, 201, product.text);
  const refused = await t.request('DELETE', `/product-fields/${used}`);
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.error.code, 'PRODUCT_FIELD_IN_USE');
  assert.deepEqual(refused.body.error.details, { products: 1, contract_rows: 0 });
  const inactive = await t.request('PATCH', `/product-fields/${used}`, { body: { status: 'inactive' } });
  assert.equal(inactive.status, 200, inactive.text);

  const rowUsed = await field('resource', 'R-ROW');
  const contract = await t.request('POST', '/contracts', {
    body: { name: 'Uses R-ROW', client_id: clientId, rows: [{ description: 'x', resource_id: rowUsed }] },
  });
  assert.equal(contract.status, 201, contract.text);
  const rowRefused = await t.request('DELETE', `/product-fields/${rowUsed}`);
  assert.equal(rowRefused.status, 409);
  assert.deepEqual(rowRefused.body.error.details, { products: 0, contract_rows: 1 });

  // Once the product is deleted, the entry may go.
  assert.equal((await t.request('DELETE', `/products/${product.body.data.id}`)).status, 204);
  const gone = await t.request('DELETE', `/product-fields/${used}`);
  assert.equal(gone.status, 204, gone.text);
});
