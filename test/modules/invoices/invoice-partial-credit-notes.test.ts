import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { billingFixtures } from '../billing/support.ts';
import { download } from '../invoice-documents/fixtures.ts';
import { assertNoFindings } from '../invoice-documents/rules/assert-findings.ts';
import { invoiceFixtures } from './support.ts';

const t = await createTestApp();
const f = invoiceFixtures(t);

const clientId = await f.client();
const vat = await f.tax('VAT 22', '0.22');
const sellerId = await f.seller();
await f.billingSettings({ invoice_number_format: 'INV-{yyyy}-{seq:4}' });

const ROWS = [
  { description: 'Advice', quantity: 4, unit: 'h', net_price: 100, tax_id: vat },
  { description: 'Materials', quantity: 1, net_price: 35.5 },
];

async function finalized(rows: Array<Record<string, unknown>> = ROWS, tenant = t.tenant) {
  const draft = await f.invoice({ client_id: clientId, seller_id: sellerId, invoice_date: '2026-02-10', rows }, tenant);
  return f.finalize(draft.id, tenant);
}

const etagOf = async (id: number, tenant = t.tenant) =>
  (await t.request('GET', `/invoices/${id}`, { tenant })).headers.get('etag')!;

async function credit(id: number, rows: unknown, opts: { etag?: string | null; tenant?: any; key?: string } = {}) {
  const tenant = opts.tenant ?? t.tenant;
  const etag = opts.etag === undefined ? await etagOf(id, tenant) : opts.etag;
  return t.request('POST', `/invoices/${id}/credit-notes`, {
    tenant,
    key: opts.key,
    body: { rows },
    headers: etag === null ? {} : { 'if-match': etag },
  });
}

async function creditNotesOf(invoiceId: number, tenant = t.tenant) {
  const res = await t.request('GET', '/invoices?type=credit_note&limit=200', { tenant });
  assert.equal(res.status, 200, res.text);
  return res.body.data.filter((i: any) => i.credited_invoice_id === invoiceId);
}

const rowsOf = (note: any) =>
  note.rows.map((r: any) => [r.credited_row_id, r.description, r.quantity, r.unit, r.net_price, r.net_sum, r.tax_sum]);

test('a quantity of a row: the row at its price, 201 with the credit note, the invoice unchanged', async () => {
  const invoice = await finalized();
  const [advice] = invoice.rows;
  const before = await t.request('GET', `/invoices/${invoice.id}`);
  const res = await credit(invoice.id, [{ row_id: advice.id, quantity: 1 }]);
  assert.equal(res.status, 201, res.text);
  const note = res.body.data;
  assert.equal(res.headers.get('etag'), `"${note.updated_at}"`);
  assert.deepEqual([note.type, note.credited_invoice_id, note.status], ['credit_note', invoice.id, 'created']);
  assert.match(note.invoice_number, /^CN-INV-\d{4}-\d{4}$/);
  assert.deepEqual([note.net_sum, note.tax_sum, note.total_sum, note.paid_sum], [100, 22, 122, 0]);
  assert.deepEqual(rowsOf(note), [[advice.id, 'Advice', 1, 'h', 100, 100, 22]]);
  assert.deepEqual([note.client_name, note.seller_vat_code], [invoice.client_name, invoice.seller_vat_code]);

  const after = await t.request('GET', `/invoices/${invoice.id}`);
  assert.deepEqual(after.body, before.body, 'the credited invoice is left as it was');
  const events = await t.db.db
    .selectFrom('events')
    .select('data')
    .where('company_id', '=', t.tenant.companyId)
    .where('event', '=', 'invoice.created')
    .execute();
  assert.ok(events.some((e: any) => e.data.id === note.id && e.data.type === 'credit_note'));
});

test('an amount of a row, then what is left of it; the notes of a row add up to the row', async () => {
  const invoice = await finalized();
  const [advice, materials] = invoice.rows;
  const amount = await credit(invoice.id, [{ row_id: materials.id, net_amount: 10.5 }]);
  assert.equal(amount.status, 201, amount.text);
  assert.deepEqual(rowsOf(amount.body.data), [[materials.id, 'Materials', 1, null, 10.5, 10.5, 0]]);

  const byQuantity = await credit(invoice.id, [{ row_id: advice.id, quantity: 1.5 }]);
  assert.equal(byQuantity.status, 201, byQuantity.text);
  const rest = await credit(invoice.id, [{ row_id: advice.id }, { row_id: materials.id }]);
  assert.equal(rest.status, 201, rest.text);
  // Advice was credited by quantity: the rest is the quantity left. Materials by amount: the amount left.
  assert.deepEqual(rowsOf(rest.body.data), [
    [advice.id, 'Advice', 2.5, 'h', 100, 250, 55],
    [materials.id, 'Materials', 1, null, 25, 25, 0],
  ]);
  const notes = await creditNotesOf(invoice.id);
  assert.equal(notes.length, 3);
  const net = notes.reduce((sum: number, n: any) => sum + n.net_sum * 100, 0) / 100;
  assert.equal(net, invoice.net_sum);
});

test('over-crediting and unknown rows are 422 CREDIT_NOTE_ROWS_REJECTED naming each item; nothing is written', async () => {
  const invoice = await finalized();
  const other = await finalized();
  const [advice, materials] = invoice.rows;
  assert.equal((await credit(invoice.id, [{ row_id: advice.id, quantity: 1 }])).status, 201);
  const res = await credit(invoice.id, [
    { row_id: advice.id, quantity: 4 },
    { row_id: materials.id, net_amount: -5 },
    { row_id: other.rows[0].id },
    { row_id: materials.id, net_amount: 35.51 },
  ]);
  assert.equal(res.status, 422, res.text);
  assert.equal(res.body.error.code, 'CREDIT_NOTE_ROWS_REJECTED');
  assert.deepEqual(
    res.body.error.details.rejections.map((r: any) => [r.row_index, r.row_id, r.code, r.field]),
    [
      [0, advice.id, 'AMOUNT_EXCEEDED', 'quantity'],
      [1, materials.id, 'SIGN_MISMATCH', 'net_amount'],
      [2, other.rows[0].id, 'ROW_NOT_FOUND', 'row_id'],
      [3, materials.id, 'DUPLICATE_ROW', 'row_id'],
    ],
  );
  const more = await credit(invoice.id, [
    { row_id: advice.id, quantity: 5 },
    { row_id: materials.id, net_amount: 35.51 },
  ]);
  assert.deepEqual(
    more.body.error.details.rejections.map((r: any) => r.code),
    ['QUANTITY_EXCEEDED', 'AMOUNT_EXCEEDED'],
  );
  assert.equal((await creditNotesOf(invoice.id)).length, 1, 'the refused requests wrote no credit note');

  assert.equal((await credit(invoice.id, [{ row_id: advice.id }])).status, 201);
  const full = await credit(invoice.id, [{ row_id: advice.id, quantity: 1 }]);
  assert.equal(full.status, 422);
  assert.equal(full.body.error.details.rejections[0].code, 'NOTHING_LEFT');

  const free = await finalized([{ description: 'Free', quantity: 1, net_price: 0 }, ...ROWS]);
  const tiny = await finalized([{ description: 'Tiny', quantity: 1, net_price: 0.01 }]);
  const zero = await credit(free.id, [{ row_id: free.rows[0].id }]);
  assert.equal(zero.body.error.details.rejections[0].code, 'NOTHING_TO_CREDIT');
  const rounded = await credit(tiny.id, [{ row_id: tiny.rows[0].id, quantity: 0.1 }]);
  assert.equal(rounded.status, 422);
  assert.equal(rounded.body.error.details.rejections[0].code, 'NOTHING_TO_CREDIT');
});

test('malformed items are 400 VALIDATION_ERROR', async () => {
  const invoice = await finalized();
  const row = invoice.rows[0].id;
  const cases: Array<[unknown, string | undefined]> = [
    [[{ row_id: row, quantity: 1, net_amount: 10 }], 'QUANTITY_AND_AMOUNT'],
    [[{ row_id: row, quantity: 0 }], 'OUT_OF_RANGE'],
    [[{ row_id: row, quantity: -1 }], 'OUT_OF_RANGE'],
    [[{ row_id: row, net_amount: 0 }], 'OUT_OF_RANGE'],
    [[{ row_id: row, quantity: 1.00001 }], 'TOO_MANY_DECIMALS'],
    [[{ row_id: row, net_amount: 1.005 }], 'TOO_MANY_DECIMALS'],
    [[], undefined],
    [[{ row_id: row, colour: 'red' }], undefined],
    [Array.from({ length: 1001 }, () => ({ row_id: row })), undefined],
  ];
  for (const [rows, reason] of cases) {
    const res = await credit(invoice.id, rows);
    assert.equal(res.status, 400, `${JSON.stringify(rows).slice(0, 80)}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    if (reason) assert.equal(res.body.error.details.reason, reason, res.text);
  }
  assert.deepEqual(await creditNotesOf(invoice.id), []);
});

test('only a created, sent or paid invoice is credited (409 INVOICE_NOT_CREDITABLE); If-Match is required', async () => {
  const draft = await f.invoice({ client_id: clientId, rows: [{ quantity: 1, net_price: 5 }] });
  const res = await credit(draft.id, [{ row_id: draft.rows[0].id }], { etag: null });
  assert.equal(res.status, 409, res.text);
  assert.deepEqual([res.body.error.code, res.body.error.details.status], ['INVOICE_NOT_CREDITABLE', 'draft']);

  const annulled = await finalized();
  const patch = await t.request('PATCH', `/invoices/${annulled.id}`, {
    body: { status: 'annulled' },
    headers: { 'if-match': await etagOf(annulled.id) },
  });
  assert.equal(patch.status, 200, patch.text);
  const late = await credit(annulled.id, [{ row_id: annulled.rows[0].id }]);
  assert.deepEqual([late.status, late.body.error.details.status], [409, 'annulled']);
  const [note] = await creditNotesOf(annulled.id);
  const ofNote = await credit(note.id, [{ row_id: note.rows[0].id }]);
  assert.deepEqual([ofNote.status, ofNote.body.error.details.type], [409, 'credit_note']);

  const invoice = await finalized();
  const row = invoice.rows[0].id;
  const missing = await credit(invoice.id, [{ row_id: row }], { etag: null });
  assert.deepEqual([missing.status, missing.body.error.code], [428, 'PRECONDITION_REQUIRED']);
  const stale = await credit(invoice.id, [{ row_id: row }], { etag: '"2000-01-01T00:00:00.000Z"' });
  assert.deepEqual([stale.status, stale.body.error.code], [412, 'STALE_WRITE']);
  const unknown = await credit(999999, [{ row_id: row }], { etag: '"x"' });
  assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'NOT_FOUND']);
  const other = await t.newTenant({ name: 'Elsewhere' });
  const foreign = await credit(invoice.id, [{ row_id: row }], { etag: '"x"', tenant: other });
  assert.equal(foreign.status, 404);
  const writer = await credit(invoice.id, [{ row_id: row }], { key: 'write' });
  assert.equal(writer.status, 403, writer.text);
  assert.deepEqual(await creditNotesOf(invoice.id), []);
});

test('concurrent credits of the same row: one note takes what is left, the others find nothing left', async () => {
  const invoice = await finalized();
  const etag = await etagOf(invoice.id);
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => credit(invoice.id, [{ row_id: invoice.rows[0].id }], { etag })),
  );
  assert.deepEqual(answers.map((a) => a.status).sort(), [201, 422, 422, 422, 422, 422, 422, 422]);
  for (const refused of answers.filter((a) => a.status === 422))
    assert.equal(refused.body.error.details.rejections[0].code, 'NOTHING_LEFT');
  const notes = await creditNotesOf(invoice.id);
  assert.deepEqual(
    notes.map((n: any) => n.net_sum),
    [400],
  );
});

test('annulling after partial credit notes credits only what is left; nothing left, no further note', async () => {
  const invoice = await finalized();
  const [advice, materials] = invoice.rows;
  assert.equal((await credit(invoice.id, [{ row_id: advice.id, quantity: 3 }])).status, 201);
  const annul = async (id: number) =>
    t.request('PATCH', `/invoices/${id}`, { body: { status: 'annulled' }, headers: { 'if-match': await etagOf(id) } });
  assert.equal((await annul(invoice.id)).status, 200);
  const notes = await creditNotesOf(invoice.id);
  assert.equal(notes.length, 2);
  const last = notes.find((n: any) => n.rows.length === 2);
  assert.deepEqual(rowsOf(last), [
    [advice.id, 'Advice', 1, 'h', 100, 100, 22],
    [materials.id, 'Materials', 1, null, 35.5, 35.5, 0],
  ]);

  const whole = await finalized();
  assert.equal(
    (
      await credit(
        whole.id,
        whole.rows.map((r: any) => ({ row_id: r.id })),
      )
    ).status,
    201,
  );
  assert.equal((await annul(whole.id)).status, 200);
  assert.equal((await creditNotesOf(whole.id)).length, 1, 'everything was credited: the annulment issues none');
});

test("revenue and a client budget's spend count a partial credit note; an annulment leaves them as before", async () => {
  const tenant = await t.newTenant({ name: 'Revenue Co' });
  const g = invoiceFixtures(t);
  const client = await g.client({}, tenant);
  const tax = await g.tax('VAT 22', '0.22', tenant);
  const rows = ROWS.map((row) => ('tax_id' in row ? { ...row, tax_id: tax } : row));
  const draft = await g.invoice({ client_id: client, invoice_date: '2026-03-02', rows }, tenant);
  const invoice = await g.finalize(draft.id, tenant);
  const budget = await t.request('POST', '/budgets', {
    tenant,
    body: { name: 'Year', client_id: client, budget_net_sum: 1000, date_from: '2026-01-01', date_until: '2026-12-31' },
  });
  assert.equal(budget.status, 201, budget.text);
  const figures = async () => {
    // A refresh first: kpi-summary serves the window's snapshot, computed at most 10 minutes ago (decision 0026).
    const year = 'date_from=2026-01-01&date_to=2026-12-31';
    assert.equal((await t.request('POST', `/reports/bi/refresh?${year}`, { tenant })).status, 200);
    const kpi = await t.request('GET', `/reports/kpi-summary?${year}`, { tenant });
    assert.equal(kpi.status, 200, kpi.text);
    const spent = await t.request('GET', `/budgets/${budget.body.data.id}`, { tenant });
    return [kpi.body.data.revenue, spent.body.data.spent_net_sum];
  };
  assert.deepEqual(await figures(), [435.5, 435.5]);
  const res = await credit(invoice.id, [{ row_id: invoice.rows[0].id, quantity: 1 }], { tenant });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(await figures(), [335.5, 335.5], 'the partial credit note lowers both');
  const patch = await t.request('PATCH', `/invoices/${invoice.id}`, {
    tenant,
    body: { status: 'annulled' },
    headers: { 'if-match': await etagOf(invoice.id, tenant) },
  });
  assert.equal(patch.status, 200, patch.text);
  assert.deepEqual(await figures(), [0, 0], 'annulled: neither the invoice nor its credit notes count');
});

test('the engine bills work again when a partial note credits its row in full, not when it credits part', async () => {
  const tenant = await t.newTenant({ name: 'Partial Engine Co', timezone: 'Europe/Tallinn' });
  const b = billingFixtures(t, tenant);
  const { billOctober: run } = await b.hourlyClient('Partial');
  const first = await run();
  assert.equal(first.status, 201, first.text);
  const invoiceId = first.body.data.invoices[0].id;
  const invoice = await invoiceFixtures(t).finalize(invoiceId, tenant);
  const row = invoice.rows.find((r: any) => r.net_sum === 180);
  assert.ok(row, JSON.stringify(invoice.rows));

  assert.equal((await credit(invoiceId, [{ row_id: row.id, quantity: 0.5 }], { tenant })).status, 201);
  assert.notDeepEqual(await b.links(invoiceId), [], 'a part credited: the work stays billed');
  assert.deepEqual((await run()).body.data.invoices, []);

  assert.equal((await credit(invoiceId, [{ row_id: row.id }], { tenant })).status, 201);
  assert.deepEqual(await b.links(invoiceId), [], 'the row credited in full released its links');
  const rebilled = await run();
  assert.equal(rebilled.status, 201, rebilled.text);
  assert.equal(rebilled.body.data.invoices.length, 1, 'the released work is billed again');
});

test("a partial credit note's UBL and CII pass the rule checker, amount rows included", async () => {
  const invoice = await finalized();
  const res = await credit(invoice.id, [
    { row_id: invoice.rows[0].id, quantity: 0.5 },
    { row_id: invoice.rows[1].id, net_amount: 12.25 },
  ]);
  assert.equal(res.status, 201, res.text);
  for (const format of ['ubl', 'cii']) {
    const doc = await download(t, `/invoices/${res.body.data.id}/document?format=${format}`);
    assert.equal(doc.status, 200);
    const xml = new TextDecoder().decode(doc.bytes);
    // UBL_DUMP_DIR=/tmp/x writes them there, for the official validators run by hand (they need Java).
    if (process.env.UBL_DUMP_DIR)
      writeFileSync(join(process.env.UBL_DUMP_DIR, `partial-credit-note-${format}.xml`), xml);
    assertNoFindings(xml, `partial credit note ${format}`);
    assert.ok(xml.includes(invoice.invoice_number), 'the note refers to the invoice');
  }
});
