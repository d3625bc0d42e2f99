import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { invoiceFixtures } from './support.ts';

const t = await createTestApp();
const f = invoiceFixtures(t);
const clientId = await f.client();
const sellerId = await f.seller();
await f.billingSettings({ invoice_number_format: 'P-{yyyy}-{seq:4}' });

const draft = () => f.invoice({ client_id: clientId, seller_id: sellerId, invoice_date: '2026-03-02', rows: [] });
const addRow = (invoiceId: number, body: Record<string, unknown>) =>
  t.request('POST', `/invoices/${invoiceId}/rows`, { body: { quantity: 1, net_price: 50, ...body } });
const patchRow = (invoiceId: number, rowId: number, body: Record<string, unknown>) =>
  t.request('PATCH', `/invoices/${invoiceId}/rows/${rowId}`, { body });
const stored = (rowId: number) =>
  t.db.db
    .selectFrom('invoice_rows')
    .select(['period_start', 'period_end'])
    .where('id', '=', rowId)
    .executeTakeFirstOrThrow();

test('a row carries its service period (BG-26): written on create and update, stored, read back', async () => {
  const invoice = await draft();
  const created = await addRow(invoice.id, { period_start: '2026-02-01', period_end: '2026-02-28' });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual([created.body.data.period_start, created.body.data.period_end], ['2026-02-01', '2026-02-28']);
  const rowId = created.body.data.id;
  assert.deepEqual(await stored(rowId), { period_start: '2026-02-01', period_end: '2026-02-28' });

  const moved = await patchRow(invoice.id, rowId, { period_end: '2026-02-14' });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual([moved.body.data.period_start, moved.body.data.period_end], ['2026-02-01', '2026-02-14']);
  const oneDay = await patchRow(invoice.id, rowId, { period_start: '2026-02-14' });
  assert.equal(oneDay.status, 200, oneDay.text);

  const cleared = await patchRow(invoice.id, rowId, { period_start: null, period_end: null });
  assert.equal(cleared.status, 200, cleared.text);
  assert.deepEqual(await stored(rowId), { period_start: null, period_end: null });

  const plain = await addRow(invoice.id, { description: 'No period' });
  assert.equal(plain.status, 201, plain.text);
  assert.deepEqual([plain.body.data.period_start, plain.body.data.period_end], [null, null]);
  const read = await t.request('GET', `/invoices/${invoice.id}`);
  assert.deepEqual(
    read.body.data.rows.map((r: any) => [r.period_start, r.period_end]),
    [
      [null, null],
      [null, null],
    ],
  );
});

test('a period of one day alone is refused (DATE_RANGE_INCOMPLETE), so is an end before its start (INVALID_DATE_RANGE)', async () => {
  const invoice = await draft();
  const half = await addRow(invoice.id, { period_start: '2026-02-01' });
  assert.equal(half.status, 400, half.text);
  assert.deepEqual(
    [half.body.error.code, half.body.error.details.reason],
    ['VALIDATION_ERROR', 'DATE_RANGE_INCOMPLETE'],
  );
  assert.equal(half.body.error.details.field, 'period_end');
  const reversed = await addRow(invoice.id, { period_start: '2026-02-10', period_end: '2026-02-09' });
  assert.equal(reversed.status, 400, reversed.text);
  assert.deepEqual(
    [reversed.body.error.code, reversed.body.error.details.reason],
    ['VALIDATION_ERROR', 'INVALID_DATE_RANGE'],
  );
  assert.equal(reversed.body.error.details.field, 'period_end');

  const row = await addRow(invoice.id, { period_start: '2026-02-01', period_end: '2026-02-28' });
  const rowId = row.body.data.id;
  const dropped = await patchRow(invoice.id, rowId, { period_end: null });
  assert.equal(dropped.status, 400, dropped.text);
  assert.deepEqual(
    [dropped.body.error.code, dropped.body.error.details.reason],
    ['VALIDATION_ERROR', 'DATE_RANGE_INCOMPLETE'],
  );
  assert.equal(dropped.body.error.details.field, 'period_end');
  const before = await patchRow(invoice.id, rowId, { period_start: '2026-03-01' });
  assert.equal(before.status, 400, before.text);
  assert.deepEqual(
    [before.body.error.code, before.body.error.details.reason],
    ['VALIDATION_ERROR', 'INVALID_DATE_RANGE'],
  );
  assert.deepEqual(await stored(rowId), { period_start: '2026-02-01', period_end: '2026-02-28' });

  const inline = await t.request('POST', '/invoices', {
    body: { client_id: clientId, rows: [{ net_price: 1 }, { net_price: 1, period_end: '2026-02-28' }] },
  });
  assert.equal(inline.status, 400, inline.text);
  assert.deepEqual(
    [inline.body.error.code, inline.body.error.details.reason],
    ['VALIDATION_ERROR', 'DATE_RANGE_INCOMPLETE'],
  );
  assert.match(inline.body.error.details.field, /period_start$/);
});

test("a credit note's rows keep the service periods of the invoice's", async () => {
  const invoice = await f.invoice({
    client_id: clientId,
    seller_id: sellerId,
    invoice_date: '2026-03-02',
    rows: [
      { description: 'February', net_price: 10, period_start: '2026-02-01', period_end: '2026-02-28' },
      { description: 'Setup', net_price: 5 },
    ],
  });
  const final = await f.finalize(invoice.id);
  const etag = (await t.request('GET', `/invoices/${final.id}`)).headers.get('etag')!;
  const annulled = await t.request('PATCH', `/invoices/${final.id}`, {
    body: { status: 'annulled' },
    headers: { 'if-match': etag },
  });
  assert.equal(annulled.status, 200, annulled.text);
  const notes = await t.request('GET', '/invoices?type=credit_note&limit=100');
  const note = notes.body.data.find((n: any) => n.credited_invoice_id === final.id);
  assert.deepEqual(
    note.rows.map((r: any) => [r.description, r.period_start, r.period_end]),
    [
      ['February', '2026-02-01', '2026-02-28'],
      ['Setup', null, null],
    ],
  );
});
