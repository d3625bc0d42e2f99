import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { billingFixtures } from '../billing/support.ts';
import { invoiceFixtures } from './support.ts';
import { download, pdfText } from '../invoice-documents/fixtures.ts';

const t = await createTestApp();
const f = invoiceFixtures(t);

const clientId = await f.client();
const vat = await f.tax('VAT 22', '0.22');
const sellerId = await f.seller();
await f.billingSettings({ invoice_number_format: 'INV-{yyyy}-{seq:4}' });
const year = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date()).slice(0, 4);

async function finalized(rows: Array<Record<string, unknown>> = [{ quantity: 2, net_price: 100, tax_id: vat }]) {
  const draft = await f.invoice({ client_id: clientId, seller_id: sellerId, invoice_date: '2026-02-10', rows });
  return f.finalize(draft.id);
}

async function annul(id: number, tenant = t.tenant) {
  const etag = (await t.request('GET', `/invoices/${id}`, { tenant })).headers.get('etag')!;
  return t.request('PATCH', `/invoices/${id}`, { tenant, body: { status: 'annulled' }, headers: { 'if-match': etag } });
}

async function creditNotesOf(invoiceId: number, tenant = t.tenant) {
  const res = await t.request('GET', '/invoices?type=credit_note&limit=100', { tenant });
  assert.equal(res.status, 200, res.text);
  return res.body.data.filter((i: any) => i.credited_invoice_id === invoiceId);
}

test('annulling a finalized invoice issues its credit note: same rows and sums, own number, invoice.created', async () => {
  const invoice = await finalized([
    { description: 'Advice', quantity: 2, net_price: 100, tax_id: vat },
    { description: 'Materials', quantity: 1, net_price: 35.5 },
  ]);
  assert.equal(invoice.type, 'invoice');
  assert.equal(invoice.credited_invoice_id, null);
  const res = await annul(invoice.id);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.status, 'annulled');
  assert.equal(res.body.data.type, 'invoice');

  const [note, ...more] = await creditNotesOf(invoice.id);
  assert.equal(more.length, 0);
  assert.equal(note.type, 'credit_note');
  assert.equal(note.status, 'created');
  assert.equal(note.invoice_number, `CN-INV-${year}-0001`);
  assert.deepEqual(
    [note.client_id, note.seller_id, note.currency, note.net_sum, note.tax_sum, note.total_sum, note.paid_sum],
    [invoice.client_id, invoice.seller_id, invoice.currency, 235.5, 44, 279.5, 0],
  );
  assert.deepEqual(
    note.rows.map((r: any) => [r.description, r.quantity, r.net_price, r.net_sum, r.tax_rate, r.tax_sum]),
    invoice.rows.map((r: any) => [r.description, r.quantity, r.net_price, r.net_sum, r.tax_rate, r.tax_sum]),
  );
  assert.equal(note.client_name, invoice.client_name);
  assert.equal(note.seller_vat_code, invoice.seller_vat_code);

  const events = await t.db.db
    .selectFrom('events')
    .select(['event', 'data'])
    .where('company_id', '=', t.tenant.companyId)
    .where('event', '=', 'invoice.created')
    .execute();
  const created = events.find((e: any) => e.data.id === note.id);
  assert.ok(created, 'invoice.created records the credit note');
  assert.deepEqual(
    [(created.data as any).type, (created.data as any).credited_invoice_id],
    ['credit_note', invoice.id],
  );
});

test('GET /invoices lists both types unless type is given; a bad type is 422', async () => {
  const invoice = await finalized();
  await annul(invoice.id);
  const all = await t.request('GET', '/invoices?limit=200');
  assert.equal(all.status, 200);
  const types = new Set(all.body.data.map((i: any) => i.type));
  assert.deepEqual([...types].sort(), ['credit_note', 'invoice']);
  const invoices = await t.request('GET', '/invoices?type=invoice&limit=200');
  assert.ok(invoices.body.data.every((i: any) => i.type === 'invoice' && i.credited_invoice_id === null));
  assert.ok(invoices.body.data.some((i: any) => i.id === invoice.id));
  const notes = await t.request('GET', '/invoices?type=credit_note&limit=200');
  assert.ok(notes.body.data.length >= 1);
  assert.ok(notes.body.data.every((i: any) => i.type === 'credit_note' && i.credited_invoice_id !== null));
  const bad = await t.request('GET', '/invoices?type=receipt');
  assert.equal(bad.status, 422, bad.text);
  assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
});

test('a credit note cannot be annulled (409 INVALID_STATUS_TRANSITION, reason CREDIT_NOTE); a draft gets none', async () => {
  const invoice = await finalized();
  await annul(invoice.id);
  const [note] = await creditNotesOf(invoice.id);
  const res = await annul(note.id);
  assert.equal(res.status, 409, res.text);
  assert.equal(res.body.error.code, 'INVALID_STATUS_TRANSITION');
  assert.equal(res.body.error.details.reason, 'CREDIT_NOTE');
  assert.equal((await t.request('GET', `/invoices/${note.id}`)).body.data.status, 'created');

  const draft = await f.invoice({ client_id: clientId, rows: [{ quantity: 1, net_price: 5 }] });
  assert.equal((await annul(draft.id)).status, 409);
  assert.deepEqual(await creditNotesOf(draft.id), []);
});

test('credit-note numbers stay gapless under 50 concurrent annulments', async () => {
  const tenant = await t.newTenant({ name: 'Gapless Co' });
  const g = invoiceFixtures(t);
  const client = await g.client({}, tenant);
  const ids: number[] = [];
  for (let n = 0; n < 50; n++) {
    const draft = await g.invoice({ client_id: client, rows: [{ quantity: 1, net_price: n + 1 }] }, tenant);
    ids.push((await g.finalize(draft.id, tenant)).id);
  }
  const answers = await Promise.all(ids.map((id) => annul(id, tenant)));
  assert.deepEqual(
    answers.map((a) => a.status),
    ids.map(() => 200),
  );
  const notes = await t.request('GET', '/invoices?type=credit_note&limit=100', { tenant });
  assert.equal(notes.body.data.length, 50);
  const numbers = notes.body.data
    .map((n: any) => Number(/^CN-(\d+)$/.exec(n.invoice_number)![1]))
    .sort((a: number, b: number) => a - b);
  assert.deepEqual(
    numbers,
    Array.from({ length: 50 }, (_, i) => i + 1),
  );
  assert.deepEqual(
    notes.body.data.map((n: any) => n.credited_invoice_id).sort((a: number, b: number) => a - b),
    [...ids].sort((a, b) => a - b),
  );
});

test('the engine bills annulled work again only once its credit note is issued, and revenue counts neither', async () => {
  const tenant = await t.newTenant({ name: 'Engine Co', timezone: 'Europe/Tallinn' });
  const b = billingFixtures(t, tenant);
  const { billOctober: run } = await b.hourlyClient('Rebill');

  const first = await run();
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body.data.invoices.length, 1, first.text);
  const invoiceId = first.body.data.invoices[0].id;
  await invoiceFixtures(t).finalize(invoiceId, tenant);
  const again = await run();
  assert.deepEqual(again.body.data.invoices, [], 'nothing left to bill while the invoice stands');

  assert.equal((await annul(invoiceId, tenant)).status, 200);
  const [note] = await creditNotesOf(invoiceId, tenant);
  assert.ok(note, 'the annulment issued a credit note');
  assert.equal(note.total_sum, (await t.request('GET', `/invoices/${invoiceId}`, { tenant })).body.data.total_sum);
  assert.deepEqual(await b.links(invoiceId), [], 'the credit note released the links');
  const rebilled = await run();
  assert.equal(rebilled.status, 201, rebilled.text);
  assert.equal(rebilled.body.data.invoices.length, 1, 'the released work is billed again');

  // Revenue counts neither the annulled invoice nor its credit note; the new draft is draft revenue.
  const kpi = await t.request('GET', '/reports/kpi-summary?date_from=2026-01-01&date_to=2026-12-31', { tenant });
  assert.equal(kpi.status, 200, kpi.text);
  assert.equal(kpi.body.data.revenue, 0);
  assert.equal(kpi.body.data.draft_revenue, 180);
});

test("a credit note's PDF is titled Credit note and names the invoice it credits", async () => {
  const invoice = await finalized([{ description: 'Advice', quantity: 1, net_price: 80, tax_id: vat }]);
  await annul(invoice.id);
  const [note] = await creditNotesOf(invoice.id);
  const res = await download(t, `/invoices/${note.id}/document?format=pdf`);
  assert.equal(res.status, 200);
  const text = (await pdfText(res.bytes)).replace(/\s+/g, ' ');
  assert.ok(text.startsWith('Credit note '), text.slice(0, 300));
  assert.ok(text.includes(`Credits invoice: ${invoice.invoice_number} (2026-02-10)`), text);
  assert.ok(text.includes(`Credit note ${note.invoice_number} | Page 1/1`), text);
  const original = (await pdfText((await download(t, `/invoices/${invoice.id}/document?format=pdf`)).bytes)).replace(
    /\s+/g,
    ' ',
  );
  assert.ok(original.startsWith('Invoice ') && !original.includes('Credits invoice'), original.slice(0, 80));
});
