import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { invoiceFixtures } from './support.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const f = invoiceFixtures(t);
const clientId = await f.client();

test('GET /invoices/{id} answers the record and its ETag; another company gets 404', async () => {
  const inv = await f.invoice({ client_id: clientId, rows: [{ net_price: 5 }] });
  const res = await t.request('GET', `/invoices/${inv.id}`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data, inv);
  assert.equal(res.headers.get('etag'), `"${inv.updated_at}"`);
  const foreign = await t.request('GET', `/invoices/${inv.id}`, { tenant: other });
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('GET', '/invoices/2147483000')).status, 404);
});

test('GET /invoices filters by status, client and invoice date, pages by cursor, and hides other companies', async () => {
  const listClient = await f.client({ name: 'Lister' });
  const ids: number[] = [];
  for (const day of ['2026-07-01', '2026-07-15', '2026-08-01'])
    ids.push((await f.invoice({ client_id: listClient, invoice_date: day, rows: [{ net_price: 1 }] })).id);
  await f.finalize(ids[2]!);
  const byClient = await t.request('GET', `/invoices?client_id=${listClient}`);
  assert.deepEqual(
    byClient.body.data.map((i: { id: number }) => i.id),
    ids,
  );
  assert.equal(byClient.body.meta.total, 3);
  assert.equal(byClient.body.data[0].rows.length, 1, 'rows are inlined in lists too');
  const dated = await t.request(
    'GET',
    `/invoices?client_id=${listClient}&invoice_date_from=2026-07-10&invoice_date_to=2026-07-31`,
  );
  assert.deepEqual(
    dated.body.data.map((i: { id: number }) => i.id),
    [ids[1]],
  );
  const created = await t.request('GET', `/invoices?client_id=${listClient}&status=created`);
  assert.deepEqual(
    created.body.data.map((i: { id: number }) => i.id),
    [ids[2]],
  );
  const drafts = await t.request('GET', `/invoices?client_id=${listClient}&status=draft,annulled&sort=-invoice_date`);
  assert.deepEqual(
    drafts.body.data.map((i: { id: number }) => i.id),
    [ids[1], ids[0]],
  );
  const first = await t.request('GET', `/invoices?client_id=${listClient}&limit=2&sort=-invoice_date`);
  assert.equal(first.body.meta.has_more, true);
  const next = await t.request('GET', `/invoices?cursor=${encodeURIComponent(first.body.meta.next_cursor)}&limit=2`);
  assert.equal(next.status, 200, next.text);
  assert.deepEqual(
    next.body.data.map((i: { id: number }) => i.id),
    [ids[0]],
  );
  assert.equal(next.body.meta.total, undefined, 'cursor pages carry no total');
  assert.equal((await t.request('GET', '/invoices?cursor=junk')).body.error.code, 'INVALID_CURSOR');
  const badFilter = await t.request('GET', '/invoices?invoice_date_from=yesterday');
  assert.equal(badFilter.status, 422);
  assert.equal(badFilter.body.error.code, 'INVALID_FILTER_VALUE');
  assert.equal((await t.request('GET', '/invoices?status=open')).status, 422);
  assert.equal((await t.request('GET', '/invoices?colour=red')).body.error.code, 'UNKNOWN_FILTER_FIELD');
  const foreign = await t.request('GET', `/invoices?client_id=${listClient}`, { tenant: other });
  assert.deepEqual(foreign.body.data, []);
});

test('every invoice route needs the financials tier: read, write and personal keys get 403', async () => {
  const inv = await f.invoice({ client_id: clientId, rows: [{ net_price: 1 }] });
  const rowId = inv.rows[0].id;
  const calls: Array<[string, string]> = [
    ['GET', '/invoices'],
    ['GET', `/invoices/${inv.id}`],
    ['POST', '/invoices'],
    ['PATCH', `/invoices/${inv.id}`],
    ['GET', `/invoices/${inv.id}/rows`],
    ['POST', `/invoices/${inv.id}/rows`],
    ['GET', `/invoices/${inv.id}/rows/${rowId}`],
    ['PATCH', `/invoices/${inv.id}/rows/${rowId}`],
    ['DELETE', `/invoices/${inv.id}/rows/${rowId}`],
    ['POST', `/invoices/${inv.id}/mark-paid`],
    ['POST', `/invoices/${inv.id}/mark-unpaid`],
    ['POST', `/invoices/${inv.id}/refresh-payment-status`],
  ];
  for (const key of ['read', 'write', 'personal'])
    for (const [method, path] of calls) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { client_id: clientId };
      const res = await t.request(method, path, { key, body });
      assert.equal(res.status, 403, `${key} ${method} ${path}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  assert.equal((await f.storedRows(inv.id)).length, 1);
});

test('PATCH reaches only InvoiceUpdate fields, needs If-Match, and fires invoice.updated', async () => {
  const inv = await f.invoice({ client_id: clientId, invoice_date: '2026-04-01', rows: [{ net_price: 2 }] });
  for (const field of ['client_id', 'net_sum', 'invoice_number', 'rows', 'currency', 'paid_sum', 'seller_id']) {
    const res = await t.request('PATCH', `/invoices/${inv.id}`, {
      body: { [field]: 1 },
      headers: { 'if-match': `"${inv.updated_at}"` },
    });
    assert.equal(res.status, 400, field);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.match(JSON.stringify(res.body.error), new RegExp(field));
  }
  const missing = await t.request('PATCH', `/invoices/${inv.id}`, { body: { comments: 'x' } });
  assert.equal(missing.status, 428);
  assert.equal(missing.body.error.code, 'PRECONDITION_REQUIRED');
  const stale = await t.request('PATCH', `/invoices/${inv.id}`, {
    body: { comments: 'x' },
    headers: { 'if-match': '"2020-01-01T00:00:00.000Z"' },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  const ok = await t.request('PATCH', `/invoices/${inv.id}`, {
    body: {
      comments: 'Edited',
      reference_number: 'R-1',
      locale_code: 'en-GB',
      invoice_date: '2026-04-02',
      due_date: '2026-04-30',
    },
    headers: { 'if-match': `"${inv.updated_at}"` },
  });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.warnings, undefined, 'a draft edit carries no warning');
  assert.equal(ok.body.data.comments, 'Edited');
  assert.equal(ok.body.data.reference_number, 'R-1');
  assert.equal(ok.body.data.locale_code, 'en-GB');
  assert.equal(ok.body.data.invoice_date, '2026-04-02');
  assert.equal(ok.body.data.due_date, '2026-04-30T00:00:00.000Z');
  assert.notEqual(ok.body.data.updated_at, inv.updated_at);
  assert.equal(ok.headers.get('etag'), `"${ok.body.data.updated_at}"`);
  const range = await t.request('PATCH', `/invoices/${inv.id}`, {
    body: { due_date: '2026-03-01' },
    headers: { 'if-match': ok.headers.get('etag')! },
  });
  assert.equal(range.status, 400);
  assert.equal(range.body.error.details.reason, 'INVALID_DATE_RANGE');
  const foreign = await t.request('PATCH', `/invoices/${inv.id}`, {
    body: { comments: 'y' },
    headers: { 'if-match': '*' },
    tenant: other,
  });
  assert.equal(foreign.status, 404);
  assert.deepEqual(
    (await f.events(inv.id)).map((e) => e.event),
    ['invoice.created', 'invoice.updated'],
  );
});
