import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Decimal } from 'decimal.js';
import { createTestApp } from '../../helpers.ts';
import { invoiceFixtures } from './support.ts';

const t = await createTestApp();
const f = invoiceFixtures(t);
const clientId = await f.client();
const vat = await f.tax('VAT 22', '0.22');
await f.billingSettings({ invoice_number_format: 'C-{seq:3}' });

test('50 concurrent finalizations get 50 distinct, consecutive numbers', async () => {
  const drafts = await Promise.all(
    Array.from({ length: 50 }, () => f.invoice({ client_id: clientId, rows: [{ net_price: 1, tax_id: vat }] })),
  );
  const responses = await Promise.all(
    drafts.map((d) =>
      t.request('PATCH', `/invoices/${d.id}`, {
        body: { status: 'created' },
        headers: { 'if-match': `"${d.updated_at}"` },
      }),
    ),
  );
  for (const res of responses) assert.equal(res.status, 200, res.text);
  const numbers = responses.map((r) => r.body.data.invoice_number as string).sort();
  assert.deepEqual(
    numbers,
    Array.from({ length: 50 }, (_, i) => `C-${String(i + 1).padStart(3, '0')}`),
  );
  const counter = await t.db.db
    .selectFrom('invoice_number_counters')
    .select('last_value')
    .where('company_id', '=', t.tenant.companyId)
    .executeTakeFirstOrThrow();
  assert.equal(Number(counter.last_value), 50);
});

test('concurrent row writes on one invoice keep net_sum, tax_sum and total_sum equal to the sum of the rows', async () => {
  const inv = await f.invoice({ client_id: clientId, rows: [{ net_price: 3.33, tax_id: vat }] });
  const writes = Array.from({ length: 40 }, (_, i) => {
    if (i % 4 === 3)
      return t.request('PATCH', `/invoices/${inv.id}/rows/${inv.rows[0].id}`, { body: { quantity: i + 1 } });
    return t.request('POST', `/invoices/${inv.id}/rows`, {
      body: { quantity: (i % 5) + 1, net_price: Number((1.11 * (i + 1)).toFixed(2)), tax_id: i % 2 ? vat : null },
    });
  });
  for (const res of await Promise.all(writes)) assert.ok(res.status === 200 || res.status === 201, res.text);
  const rows = await f.storedRows(inv.id);
  assert.equal(rows.length, 31);
  const net = rows.reduce((sum, r) => sum.plus(r.net_sum), new Decimal(0));
  const tax = rows.reduce((sum, r) => sum.plus(r.tax_sum), new Decimal(0));
  const stored = await f.stored(inv.id);
  assert.equal(stored.net_sum, net.toFixed(2));
  assert.equal(stored.tax_sum, tax.toFixed(2));
  assert.equal(stored.total_sum, net.plus(tax).toFixed(2));
  const read = (await t.request('GET', `/invoices/${inv.id}`)).body.data;
  assert.equal(read.total_sum, net.plus(tax).toNumber());
  const events = await f.events(inv.id);
  assert.equal(events.length, 41, 'one invoice.updated per row write');
});

test('two concurrent mark-paid with the same If-Match: exactly one 200, and one 409 (the status comes first)', async () => {
  const inv = await f.finalize((await f.invoice({ client_id: clientId, rows: [{ net_price: 10 }] })).id);
  const headers = { 'if-match': `"${inv.updated_at}"` };
  const results = await Promise.all([
    t.request('POST', `/invoices/${inv.id}/mark-paid`, { headers }),
    t.request('POST', `/invoices/${inv.id}/mark-paid`, { headers }),
  ]);
  const statuses = results.map((r) => r.status).sort();
  assert.deepEqual(statuses, [200, 409]);
  assert.equal(results.find((r) => r.status === 409)!.body.error.code, 'INVOICE_NOT_PAYABLE');
  const stored = await f.stored(inv.id);
  assert.deepEqual([stored.status, stored.paid_sum], ['paid', '10.00']);
  const updates = (await f.events(inv.id)).filter((e) => e.event === 'invoice.updated');
  assert.equal(updates.length, 2, 'finalization and one mark-paid');
});
