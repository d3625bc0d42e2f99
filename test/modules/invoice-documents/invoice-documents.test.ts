import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { download, makeInvoice, pdfText, storedInvoice, waitForJobState } from './fixtures.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

const squash = (text: string) => text.replace(/\s+/g, ' ');

test('the PDF carries seller, buyer, rows, VAT per rate, totals, dates and reference in English', async () => {
  const invoice = await makeInvoice(t, t.tenant, { paid_sum: '100', invoice_number: 'INV/2026-001' });
  const res = await download(t, `/invoices/${invoice.id}/document?format=pdf`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/pdf');
  assert.equal(res.headers.get('content-length'), String(res.bytes.length));
  // The "/" of the number cannot reach a file name.
  assert.equal(res.headers.get('content-disposition'), 'attachment; filename="invoice-INV-2026-001.pdf"');
  assert.equal(Buffer.from(res.bytes.slice(0, 5)).toString(), '%PDF-');
  const text = squash(await pdfText(res.bytes));
  for (const expected of [
    'Invoice',
    'Seller Ltd',
    'Seller road 9, Tartu',
    'Reg. code: 87654321',
    'VAT no.: EE100000001',
    'Bank: Example Bank',
    'IBAN: EE382200221020145685',
    'Bill to',
    'Buyer Corp',
    'Reg. code: 12345678',
    'VAT no.: EE101234567',
    'Contact: Paula Primary',
    'Invoice no.: INV/2026-001',
    'Invoice date: 2026-11-20',
    'Due date: 2026-12-04',
    'Reference number: 1234561',
    'Period: November 2026',
    'Currency: EUR',
    'Consulting work',
    'Software licence',
    'Travel <& "expenses">',
    'Books',
    '85.50',
    '855.00',
    '49.90',
    '134.73',
    '15.255',
    '30.51',
    'VAT breakdown Taxable amount VAT amount',
    'VAT 22% (VAT 22) 989.73 217.74',
    'VAT 9% (VAT 9) 30.51 2.75',
    'No VAT 120.00 0.00',
    'Total without VAT 1,140.24 EUR',
    'VAT total 220.49 EUR',
    'Total 1,360.73 EUR',
    'Paid 100.00 EUR',
    'Amount due 1,260.73 EUR',
    'Thank you for your business',
  ])
    assert.ok(text.includes(expected), `PDF text lacks "${expected}":\n${text}`);
  assert.ok(!text.includes('DRAFT'), 'a finalized invoice is not stamped');
  const stored = await storedInvoice(t, invoice.id);
  assert.equal(stored.total_sum, '1360.73', 'the document totals are the invoice totals');
});

test('labels, numbers and dates follow the invoice locale (et, de, fi), unknown locales fall back to English', async () => {
  const cases = [
    {
      locale: 'et',
      expect: [
        'Arve',
        'Maksetähtaeg: 04.12.2026',
        'Viitenumber: 1234561',
        'Kokku 1 360,73 EUR',
        'KM 22%',
        'Käibemaksuta',
        'Tasuda 1 360,73 EUR',
      ],
    },
    {
      locale: 'de-DE',
      expect: ['Rechnung', 'Fällig am: 04.12.2026', 'Referenznummer: 1234561', 'Gesamtbetrag 1.360,73 EUR', 'USt. 9%'],
    },
    {
      locale: 'fi_FI',
      expect: ['Lasku', 'Eräpäivä: 4.12.2026', 'Viitenumero: 1234561', 'Yhteensä 1 360,73 EUR', 'ALV 22%'],
    },
    { locale: 'xx', expect: ['Invoice', 'Due date: 2026-12-04', 'Total 1,360.73 EUR'] },
  ];
  for (const { locale, expect } of cases) {
    const invoice = await makeInvoice(t, t.tenant, { locale_code: locale });
    const res = await download(t, `/invoices/${invoice.id}/document`);
    assert.equal(res.status, 200, locale);
    const text = squash(await pdfText(res.bytes));
    for (const expected of expect) assert.ok(text.includes(expected), `${locale}: lacks "${expected}":\n${text}`);
  }
});

test('a draft is stamped DRAFT and named after its id; Cyrillic and symbols print, control characters vanish', async () => {
  const invoice = await makeInvoice(t, t.tenant, {
    status: 'draft',
    client_name: 'Клиент Ltd ☃',
    comments: 'bell\u0007 here',
  });
  const res = await download(t, `/invoices/${invoice.id}/document?format=pdf`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-disposition'), `attachment; filename="invoice-draft-${invoice.id}.pdf"`);
  const text = squash(await pdfText(res.bytes));
  assert.ok(text.includes('DRAFT'), text);
  assert.ok(text.includes(`Invoice no.: draft-${invoice.id}`), text);
  // Every character is drawn in an embedded face and keeps its Unicode value; the control character vanishes.
  assert.ok(text.includes('Bill to Клиент Ltd ☃'), text);
  assert.ok(text.includes('bell here'), text);
});

test('a PDF of many rows runs over pages, each numbered, every row and the totals present', async () => {
  const rows = Array.from({ length: 120 }, (_, i) => ({
    description: `Line item number ${i + 1}`,
    quantity: '1',
    net_price: '1.01',
    tax: { name: 'VAT 22', rate: '0.22' },
  }));
  const invoice = await makeInvoice(t, t.tenant, { rows });
  const res = await download(t, `/invoices/${invoice.id}/document`);
  const text = squash(await pdfText(res.bytes));
  for (let i = 1; i <= 120; i++) assert.ok(text.includes(`Line item number ${i} `), `row ${i}`);
  assert.ok(text.includes('Total without VAT 121.20 EUR'), text.slice(-600));
  const pages = Number(/Page 1\/(\d+)/.exec(text)?.[1]);
  assert.ok(pages >= 3, `${pages} pages`);
  for (let page = 1; page <= pages; page++) assert.ok(text.includes(`Page ${page}/${pages}`), `page ${page} numbered`);
});

test('export sets exported_at, moves the ETag, records invoice.updated and answers the document paths', async () => {
  const invoice = await makeInvoice(t, t.tenant);
  const res = await t.request('POST', `/invoices/${invoice.id}/export`);
  assert.equal(res.status, 200, res.text);
  const stored = await storedInvoice(t, invoice.id);
  assert.deepEqual(res.body.data, {
    invoice_id: invoice.id,
    exported_at: stored.exported_at,
    updated_at: stored.updated_at,
    documents: {
      pdf: `/api/v3/invoices/${invoice.id}/document?format=pdf`,
      ubl: `/api/v3/invoices/${invoice.id}/document?format=ubl`,
      cii: `/api/v3/invoices/${invoice.id}/document?format=cii`,
      xrechnung: `/api/v3/invoices/${invoice.id}/document?format=xrechnung`,
      facturx: `/api/v3/invoices/${invoice.id}/document?format=facturx`,
    },
  });
  assert.ok(stored.exported_at);
  assert.equal(res.headers.get('etag'), `"${stored.updated_at}"`);
  assert.notEqual(res.headers.get('etag'), invoice.etag);
  assert.equal(stored.status, 'created', 'export changes no status');
  const events = await t.db.db
    .selectFrom('events')
    .select(['event', 'data'])
    .where('company_id', '=', t.tenant.companyId)
    .where('entity', '=', 'invoice')
    .where('record_id', '=', invoice.id)
    .execute();
  assert.deepEqual(
    events.map((e) => e.event),
    ['invoice.updated'],
  );
  const data = events[0]!.data as any;
  assert.equal(data.exported_at, stored.exported_at);
  assert.equal(data.total_sum, 1360.73);
  assert.equal(data.updated_at, stored.updated_at);
  const pdf = await download(t, res.body.data.documents.pdf.slice('/api/v3'.length));
  assert.equal(pdf.status, 200);
});

test('a draft cannot be exported: 409 INVALID_STATUS_TRANSITION, nothing stored', async () => {
  const invoice = await makeInvoice(t, t.tenant, { status: 'draft' });
  const res = await t.request('POST', `/invoices/${invoice.id}/export`);
  assert.equal(res.status, 409);
  assert.equal(res.body.error.code, 'INVALID_STATUS_TRANSITION');
  assert.equal(res.body.error.details.status, 'draft');
  assert.equal((await storedInvoice(t, invoice.id)).exported_at, null);
});

test("another company's invoice is 404 on every document route", async () => {
  const invoice = await makeInvoice(t, t.tenant);
  for (const [method, path] of [
    ['GET', `/invoices/${invoice.id}/document`],
    ['GET', `/invoices/${invoice.id}/document?format=ubl`],
    ['POST', `/invoices/${invoice.id}/export`],
    ['POST', `/invoices/${invoice.id}/send`],
  ] as const) {
    const res = await t.request(method, path, { tenant: other, headers: { 'if-match': '*' } });
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.equal((await storedInvoice(t, invoice.id)).exported_at, null);
});

test('read, write and personal keys get 403 FINANCIAL_SCOPE_REQUIRED on every document route', async () => {
  const invoice = await makeInvoice(t, t.tenant);
  for (const key of ['read', 'write', 'personal'])
    for (const [method, path] of [
      ['GET', `/invoices/${invoice.id}/document`],
      ['POST', `/invoices/${invoice.id}/export`],
      ['POST', `/invoices/${invoice.id}/send`],
    ] as const) {
      const res = await t.request(method, path, { key, headers: { 'if-match': invoice.etag } });
      assert.equal(res.status, 403, `${key} ${method} ${path}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  const stored = await storedInvoice(t, invoice.id);
  assert.equal(stored.exported_at, null);
  assert.equal(stored.sent_at, null);
});

test('without SMTP the invoice mail is logged in mail_outbox and the invoice still becomes sent', async () => {
  const invoice = await makeInvoice(t, t.tenant, { primary_contact_email: 'logged@buyer.example' });
  const res = await t.request('POST', `/invoices/${invoice.id}/send`, { headers: { 'if-match': invoice.etag } });
  assert.equal(res.status, 202, res.text);
  const job = await waitForJobState(t, res.body.data.job_id, (j) => j.status === 'finished' || j.status === 'failed');
  assert.equal(job.status, 'finished', job.error);
  const outbox = await t.db.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('recipient', '=', 'logged@buyer.example')
    .executeTakeFirstOrThrow();
  assert.equal(outbox.status, 'logged');
  assert.equal(outbox.subject, `Invoice A-${invoice.clientId} - Seller Ltd`);
  assert.match(outbox.body, /Amount due: 1,360\.73 EUR\nDue date: 2026-12-04\nReference number: 1234561/);
  const stored = await storedInvoice(t, invoice.id);
  assert.equal(stored.status, 'sent');
  assert.ok(stored.sent_at);
});
