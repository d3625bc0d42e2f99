import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { invoiceFixtures } from './support.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const f = invoiceFixtures(t);

const clientId = await f.client();
await f.contact(clientId, { name: 'Zed', email: 'zed@acme.example' });
await f.contact(clientId, { is_primary: true });
const taxId = await f.tax();
const sellerId = await f.seller();
const otherClient = await f.client({ name: 'Foreign' }, other);

const countInvoices = async () =>
  Number(
    (
      await t.db.db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('company_id', '=', t.tenant.companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

test('POST /invoices creates a draft with every field of the record, snapshotting client, contact and seller', async () => {
  const contractId = await f.contract(clientId);
  const res = await t.request('POST', '/invoices', {
    body: {
      client_id: clientId,
      contract_id: contractId,
      seller_id: sellerId,
      invoice_date: '2026-03-10',
      due_date: '2026-03-24',
      currency: 'EUR',
      locale_code: 'et',
      comments: 'Thank you',
      reference_number: 'RF18539007547034',
      period_label: '2026-02',
      rows: [{ description: 'Support', quantity: 3, net_price: 40, tax_id: taxId, unit: 'h' }],
    },
  });
  assert.equal(res.status, 201, res.text);
  const inv = res.body.data;
  assert.deepEqual(Object.keys(inv).sort(), [
    'client_contact',
    'client_id',
    'client_name',
    'client_reg_code',
    'client_vat_code',
    'comments',
    'contract_id',
    'created_at',
    'credited_invoice_id',
    'currency',
    'due_date',
    'exported_at',
    'id',
    'invoice_date',
    'invoice_number',
    'locale_code',
    'net_sum',
    'paid_at',
    'paid_sum',
    'period_label',
    'reference_number',
    'rows',
    'rows_truncated',
    'seller_address',
    'seller_contact',
    'seller_id',
    'seller_name',
    'seller_reg_code',
    'seller_vat_code',
    'send_error',
    'send_failed_at',
    'sent_at',
    'status',
    'tax_sum',
    'total_sum',
    'type',
    'updated_at',
  ]);
  assert.equal(inv.status, 'draft');
  assert.equal(inv.invoice_number, null);
  assert.equal(inv.client_id, clientId);
  assert.equal(inv.contract_id, contractId);
  assert.equal(inv.seller_id, sellerId);
  assert.equal(inv.invoice_date, '2026-03-10');
  assert.equal(inv.due_date, '2026-03-24T00:00:00.000Z');
  assert.deepEqual([inv.net_sum, inv.tax_sum, inv.total_sum, inv.paid_sum], [120, 26.4, 146.4, 0]);
  assert.equal(inv.currency, 'EUR');
  assert.equal(inv.client_name, 'Acme Ltd');
  assert.equal(inv.client_reg_code, '12345678');
  assert.equal(inv.client_vat_code, 'EE123456789');
  assert.equal(inv.client_contact, 'Jane Doe <jane@acme.example>', 'the primary contact, not the first one');
  assert.equal(inv.seller_name, 'Example Services OÜ');
  assert.equal(inv.seller_reg_code, '87654321');
  assert.equal(inv.seller_vat_code, 'EE987654321');
  assert.equal(inv.seller_address, 'Main St 1, Tallinn');
  assert.equal(inv.seller_contact, 'Olive Owner <olive@test.example>', "the acting key's person");
  assert.equal(inv.locale_code, 'et');
  assert.equal(inv.comments, 'Thank you');
  assert.equal(inv.reference_number, 'RF18539007547034');
  assert.equal(inv.period_label, '2026-02');
  assert.deepEqual([inv.exported_at, inv.sent_at, inv.paid_at], [null, null, null]);
  assert.deepEqual([inv.send_error, inv.send_failed_at], [null, null]);
  assert.equal(inv.rows.length, 1);
  assert.equal(inv.rows_truncated, false);
  assert.match(inv.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(res.headers.get('etag'), `"${inv.updated_at}"`);
  const row = await f.stored(inv.id);
  assert.equal(row.seller_bank, 'Big Bank');
  assert.equal(row.seller_iban, 'EE382200221020145685');
  assert.equal(row.net_sum, '120.00');
  assert.equal(row.total_sum, '146.40');
  const events = await f.events(inv.id);
  assert.deepEqual(
    events.map((e) => e.event),
    ['invoice.created'],
  );
  const data = events[0]!.data as Record<string, unknown>;
  assert.equal(data.total_sum, 146.4);
  assert.equal('rows' in data, false, 'events carry the invoice without its rows');
});

test('defaults: default seller, today in the company timezone, payment term, company currency and locale', async () => {
  const tenant = await t.newTenant({ name: 'Far East', timezone: 'Pacific/Kiritimati' });
  const fe = invoiceFixtures(t);
  const client = await fe.client({}, tenant);
  const seller = await fe.seller({ name: 'Default seller' }, tenant);
  await fe.billingSettings({ default_seller_id: seller, payment_term_days: 10, default_locale_code: 'fi' }, tenant);
  const inv = await fe.invoice({ client_id: client }, tenant);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
  assert.equal(inv.invoice_date, today);
  const due = new Date(`${today}T00:00:00Z`);
  due.setUTCDate(due.getUTCDate() + 10);
  assert.equal(inv.due_date, due.toISOString());
  assert.equal(inv.seller_id, seller);
  assert.equal(inv.seller_name, 'Default seller');
  assert.equal(inv.currency, 'EUR');
  assert.equal(inv.locale_code, 'fi');
  assert.deepEqual(inv.rows, []);
  assert.deepEqual([inv.net_sum, inv.total_sum], [0, 0]);
  // An archived default seller is not used.
  await t.db.db.updateTable('invoice_sellers').set({ status: 'archived' }).where('id', '=', seller).execute();
  const without = await fe.invoice({ client_id: client }, tenant);
  assert.equal(without.seller_id, null);
  assert.equal(without.seller_name, null);
});

test('contract settings give currency, due period, locale and reference number; the body wins over them', async () => {
  const contractId = await f.contract(clientId, {
    currency: 'USD',
    invoice_due_date_period: 30,
    locale_code: 'de',
    reference_number: 'REF-7',
  });
  const inv = await f.invoice({ client_id: clientId, contract_id: contractId, invoice_date: '2026-01-31' });
  assert.equal(inv.currency, 'USD');
  assert.equal(inv.due_date, '2026-03-02T00:00:00.000Z');
  assert.equal(inv.locale_code, 'de');
  assert.equal(inv.reference_number, 'REF-7');
  const sent = await f.invoice({
    client_id: clientId,
    contract_id: contractId,
    invoice_date: '2026-01-31',
    currency: 'GBP',
    reference_number: null,
    seller_id: null,
  });
  assert.equal(sent.currency, 'GBP');
  assert.equal(sent.reference_number, null);
  assert.equal(sent.seller_id, null);
});

test('due_date takes a date or a date-time (its written day) and must not precede invoice_date', async () => {
  const a = await f.invoice({ client_id: clientId, invoice_date: '2026-05-01', due_date: '2026-05-20T00:00:00.000Z' });
  assert.equal(a.due_date, '2026-05-20T00:00:00.000Z');
  const b = await f.invoice({ client_id: clientId, invoice_date: '2026-05-01', due_date: '2026-05-21T23:30:00-05:00' });
  assert.equal(b.due_date, '2026-05-21T00:00:00.000Z');
  const bad = await t.request('POST', '/invoices', {
    body: { client_id: clientId, invoice_date: '2026-05-10', due_date: '2026-05-09' },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  assert.equal(bad.body.error.details.reason, 'INVALID_DATE_RANGE');
  const malformed = await t.request('POST', '/invoices', { body: { client_id: clientId, due_date: 'tomorrow' } });
  assert.equal(malformed.status, 400);
});

test('POST refuses references that are not live records of this company, and writes nothing', async () => {
  const before = await countInvoices();
  const otherContract = await f.contract(otherClient, {}, other);
  const otherSeller = await f.seller({}, other);
  const otherTax = await f.tax('Foreign VAT', '0.2', other);
  const otherProduct = await f.product({}, other);
  const secondClient = await f.client({ name: 'Second' });
  const contractOfSecond = await f.contract(secondClient);
  const archived = await f.seller({ status: 'archived' });
  const deleted = await f.client({ name: 'Gone' });
  assert.equal((await t.request('DELETE', `/clients/${deleted}`)).status, 204);
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ client_id: otherClient }, 'INVALID_CLIENT', 'client_id'],
    [{ client_id: 2147483000 }, 'INVALID_CLIENT', 'client_id'],
    [{ client_id: deleted }, 'INVALID_CLIENT', 'client_id'],
    [{ client_id: clientId, contract_id: otherContract }, 'INVALID_CONTRACT', 'contract_id'],
    [{ client_id: clientId, contract_id: contractOfSecond }, 'INVALID_CONTRACT', 'contract_id'],
    [{ client_id: clientId, seller_id: otherSeller }, 'INVALID_SELLER', 'seller_id'],
    [{ client_id: clientId, seller_id: archived }, 'INVALID_SELLER', 'seller_id'],
    [
      { client_id: clientId, rows: [{ net_price: 1 }, { net_price: 1, tax_id: otherTax }] },
      'INVALID_TAX',
      'rows[1].tax_id',
    ],
    [{ client_id: clientId, rows: [{ product_id: otherProduct }] }, 'INVALID_PRODUCT', 'rows[0].product_id'],
    [
      { client_id: clientId, rows: [{ net_price: 1, person_id: other.ownerPersonId }] },
      'INVALID_PERSON',
      'rows[0].person_id',
    ],
    [
      { client_id: clientId, rows: [{ net_price: 1, original_client_id: otherClient }] },
      'INVALID_CLIENT',
      'rows[0].original_client_id',
    ],
  ];
  for (const [body, code, field] of cases) {
    const res = await t.request('POST', '/invoices', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.code, code);
    assert.equal(res.body.error.details.field, field);
  }
  assert.equal(await countInvoices(), before);
});

test('POST body: unknown fields, read-only fields, a 201st row and bad amounts are 400 naming the field', async () => {
  const before = await countInvoices();
  for (const field of ['invoice_number', 'status', 'total_sum', 'client_name', 'bogus']) {
    const res = await t.request('POST', '/invoices', { body: { client_id: clientId, [field]: 'x' } });
    assert.equal(res.status, 400, field);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.match(JSON.stringify(res.body.error), new RegExp(field));
  }
  const rows = Array.from({ length: 201 }, () => ({ net_price: 1 }));
  const tooMany = await t.request('POST', '/invoices', { body: { client_id: clientId, rows } });
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.error.code, 'VALIDATION_ERROR');
  const amounts: Array<[Record<string, unknown>, string, string]> = [
    [{ quantity: -1, net_price: 1 }, 'rows[0].quantity', 'OUT_OF_RANGE'],
    [{ quantity: 1e9, net_price: 1 }, 'rows[0].quantity', 'OUT_OF_RANGE'],
    [{ net_price: 1.23456 }, 'rows[0].net_price', 'TOO_MANY_DECIMALS'],
    [{ net_price: 1e10 }, 'rows[0].net_price', 'OUT_OF_RANGE'],
    [{ net_price: 1, discount_rate: 101 }, 'rows[0].discount_rate', 'OUT_OF_RANGE'],
    [{ quantity: 99999999, net_price: 9999999999 }, 'rows[0].net_sum', 'OUT_OF_RANGE'],
  ];
  for (const [row, field, reason] of amounts) {
    const res = await t.request('POST', '/invoices', { body: { client_id: clientId, rows: [row] } });
    assert.equal(res.status, 400, JSON.stringify(row));
    assert.equal(res.body.error.details.field, field);
    assert.equal(res.body.error.details.reason, reason);
  }
  // Each row fits numeric(14,2), their total does not.
  const big = { quantity: 99999999, net_price: 9999 };
  const total = await t.request('POST', '/invoices', { body: { client_id: clientId, rows: [big, big] } });
  assert.equal(total.status, 400);
  assert.deepEqual([total.body.error.details.field, total.body.error.details.reason], ['net_sum', 'OUT_OF_RANGE']);
  assert.equal(await countInvoices(), before);
});

test('POST /invoices honours Idempotency-Key: a retry replays the draft, another body with the key is refused', async () => {
  const before = await countInvoices();
  const body = { client_id: clientId, rows: [{ net_price: 12 }] };
  const headers = { 'idempotency-key': 'invoice-create-1' };
  const first = await t.request('POST', '/invoices', { body, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/invoices', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.body.data.id, first.body.data.id);
  const reused = await t.request('POST', '/invoices', { body: { ...body, comments: 'other' }, headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  assert.equal(await countInvoices(), before + 1);
  const created = (await f.events(first.body.data.id)).map((e) => e.event);
  assert.deepEqual(created, ['invoice.created'], 'the replay fired nothing');
});

test('the invoice.created sample has exactly the keys of a real invoice event (the invoice without its rows)', async () => {
  const fresh = await t.newTenant();
  const sample = await t.request('GET', '/webhooks/example?event=invoice.created', { tenant: fresh });
  assert.equal(sample.status, 200, sample.text);
  const inv = await f.invoice({ client_id: clientId, rows: [{ net_price: 1 }] });
  const [event] = await f.events(inv.id);
  const { rows: _rows, rows_truncated: _truncated, ...header } = inv;
  assert.deepEqual(Object.keys(event!.data).sort(), Object.keys(header).sort());
  assert.deepEqual(Object.keys(sample.body.data.data).sort(), Object.keys(header).sort());
  assert.equal((await t.request('GET', '/webhooks/example?event=invoice.deleted')).status, 400);
});
