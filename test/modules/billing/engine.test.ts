import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { billingFixtures } from './support.ts';

// Tallinn: summer time ends on 2026-10-25 at 04:00 local (01:00 UTC), so local days and UTC days differ.
const t = await createTestApp();
const tenant = await t.newTenant({ name: 'Ledger Co', timezone: 'Europe/Tallinn' });
const f = billingFixtures(t, tenant);
const OCTOBER = { date_from: '2026-10-01', date_to: '2026-10-31' };

/** The worked example: two contracts, a price change on the 16th, rounding, a minimum, a discount, two taxes. */
async function workedExample() {
  const clientId = await f.client('Worked Example Ltd');
  const billable = await f.topic('Advice');
  const internal = await f.topic('Internal', 0);
  const vat = await f.tax('VAT 22', '0.22');
  const reduced = await f.tax('VAT 9', '0.09');
  const consulting = await f.hourly('Consulting');
  await f.price(consulting, '80.00');
  await f.price(consulting, '100.00', '2026-10-16');
  const main = await f.contract(clientId, { date_from: '2026-10-01' }, { invoice_time_rounding: 15 });
  await f.row(main, { product_id: consulting, invoice_time_min: 30, discount_rate: '10', tax_id: vat, quantity: '1' });
  await f.row(main, { description: 'Retainer', quantity: '1', net_price: '500', tax_id: reduced });
  const second = await f.contract(clientId, { name: 'Payroll', date_from: '2026-10-11' });
  await f.row(second, { description: 'Payroll service', quantity: '1', net_price: '310' });
  const advice = await f.task(clientId, billable, 'Annual report');
  const chores = await f.task(clientId, internal, 'Filing');
  const ids = await f.entries(advice, [
    ['2026-10-05T09:00:00+03:00', '2026-10-05T10:10:00+03:00'], // 70 min → 75 → 1.25 h at 80
    ['2026-10-06T10:00:00+03:00', '2026-10-06T10:10:00+03:00'], // 10 min → 15 → minimum 30 → 0.5 h at 80
    ['2026-10-20T13:00:00+03:00', '2026-10-20T14:00:00+03:00'], // 1 h at 100
    ['2026-10-20T23:30:00+03:00', '2026-10-21T00:45:00+03:00'], // across midnight: the 20th, 1.25 h at 100
    ['2026-10-24T23:30:00Z', '2026-10-25T02:30:00Z'], // 02:30 EEST → 04:30 EET: 3 h on the 25th, at 100
    { start: '2026-10-07T09:00:00+03:00', end: '2026-10-07T10:00:00+03:00', billable: false },
    ['2026-11-02T09:00:00+02:00', '2026-11-02T10:00:00+02:00'], // outside October
  ]);
  const internalIds = await f.entries(chores, [['2026-10-08T09:00:00+03:00', '2026-10-08T10:00:00+03:00']]);
  return { clientId, main, second, ids, internalIds };
}

test('the worked example bills October to the cent: prices by day, rounding, minimum, discount, two taxes, pro rata', async () => {
  const ex = await workedExample();
  const res = await f.bill(ex.clientId, OCTOBER);
  assert.equal(res.status, 201, res.text);
  const [first, payroll] = res.body.data.invoices;
  assert.equal(res.body.data.invoices.length, 2);
  assert.equal(first.contract_id, ex.main);
  assert.equal(first.status, 'draft');
  assert.equal(first.period_label, '2026-10-01 – 2026-10-31');
  const rows = first.rows.map((r: any) => [r.description, r.quantity, r.net_price, r.net_sum, r.tax_sum]);
  assert.deepEqual(rows, [
    ['Retainer (2026-10-01 – 2026-10-31)', 1, 500, 500, 45],
    ['Annual report', 1.75, 80, 126, 27.72],
    ['Annual report', 5.25, 100, 472.5, 103.95],
  ]);
  assert.deepEqual([first.net_sum, first.tax_sum, first.total_sum], [1098.5, 176.67, 1275.17]);
  // The service period (BG-26) of every row, fee and time alike, is the billed period.
  assert.deepEqual(
    first.rows.map((r: any) => [r.period_start, r.period_end]),
    first.rows.map(() => ['2026-10-01', '2026-10-31']),
  );
  // Payroll starts on the 11th: 21 of 31 days → quantity 0.6774 × 310 = 209.994 → 209.99.
  assert.equal(payroll.contract_id, ex.second);
  assert.deepEqual(
    payroll.rows.map((r: any) => [r.quantity, r.net_sum]),
    [[0.6774, 209.99]],
  );
  const outcome = res.body.data.contracts.find((c: any) => c.contract_id === ex.main);
  assert.deepEqual(
    { ...outcome, invoice_id: undefined },
    {
      contract_id: ex.main,
      period_from: '2026-10-01',
      period_until: '2026-10-31',
      invoice_id: undefined,
      time_entries: 5,
      fees: 1,
      skipped: [],
    },
  );
  const linked = await f.links(first.id);
  assert.deepEqual(
    linked.map((l) => l.time_entry_id),
    ex.ids.slice(0, 5),
    'the five billable October entries are linked; non-billable, internal-topic and November ones are not',
  );
  const stored = await t.db.db
    .selectFrom('invoices')
    .select(['bills_time', 'period_from', 'period_until'])
    .where('company_id', '=', tenant.companyId)
    .where('id', '=', first.id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.bills_time, true);

  const again = await f.bill(ex.clientId, OCTOBER);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.body.data.invoices, []);
  assert.deepEqual(
    again.body.data.contracts.map((c: any) => [c.invoice_id, c.skipped.map((s: any) => s.reason)]),
    [
      [null, ['nothing_to_bill']],
      [null, ['nothing_to_bill']],
    ],
  );
});

test('a summarized contract bills one row per price, named by summarized_description', async () => {
  const clientId = await f.client('Summary Ltd');
  const product = await f.hourly('Hours');
  await f.price(product, '60');
  const contract = await f.contract(clientId, {}, { is_summarized: true, summarized_description: 'Accounting work' });
  await f.row(contract, { product_id: product });
  const a = await f.task(clientId, null, 'A');
  const b = await f.task(clientId, null, 'B');
  await f.entries(a, [['2026-10-02T08:00:00Z', '2026-10-02T09:30:00Z']]);
  await f.entries(b, [['2026-10-03T08:00:00Z', '2026-10-03T08:45:00Z']]);
  const res = await f.bill(clientId, OCTOBER);
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(
    res.body.data.invoices[0].rows.map((r: any) => [r.description, r.quantity, r.net_sum]),
    [['Accounting work', 2.25, 135]],
  );
});

test('work without an effective price is not billed and is named in skipped', async () => {
  const clientId = await f.client('Unpriced Ltd');
  const product = await f.hourly('Unpriced hours');
  await f.price(product, '70', '2026-10-15');
  const contract = await f.contract(clientId);
  await f.row(contract, { product_id: product });
  const taskId = await f.task(clientId);
  const [early, late] = await f.entries(taskId, [
    ['2026-10-10T08:00:00Z', '2026-10-10T09:00:00Z'],
    ['2026-10-20T08:00:00Z', '2026-10-20T09:00:00Z'],
  ]);
  const res = await f.bill(clientId, OCTOBER);
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(res.body.data.contracts[0].skipped, [
    {
      reason: 'no_price',
      message: 'Time entries without a price effective on their day were not billed',
      count: 1,
      time_entry_ids: [early],
    },
  ]);
  assert.deepEqual(
    (await f.links(res.body.data.invoices[0].id)).map((l) => l.time_entry_id),
    [late],
  );
});

test('the default period is each contract’s latest period whose invoice day has come', async () => {
  const clientId = await f.client('Default Period Ltd');
  const contract = await f.contract(clientId, { invoice_period: 'quarter' });
  await f.row(contract, { description: 'Quarterly fee', quantity: '1', net_price: '900' });
  const res = await f.bill(clientId);
  assert.equal(res.status, 201, res.text);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Tallinn' }).format(new Date());
  const { period_from, period_until } = res.body.data.contracts[0];
  assert.ok(period_until < today, `${period_until} ended before ${today}`);
  const month = Number(period_from.slice(5, 7));
  assert.equal((month - 1) % 3, 0, 'a calendar quarter');
  assert.equal(res.body.data.invoices[0].period_label, `${period_from.slice(0, 4)}-Q${(month + 2) / 3}`);
  const again = await f.bill(clientId);
  assert.equal(again.status, 200);
});

test('two concurrent runs for one client make one set of invoices', async () => {
  const clientId = await f.client('Race Ltd');
  const contract = await f.contract(clientId);
  await f.row(contract, { description: 'Fee', quantity: '2', net_price: '25' });
  const [a, b] = await Promise.all([f.bill(clientId, OCTOBER), f.bill(clientId, OCTOBER)]);
  assert.deepEqual([a.status, b.status].sort(), [200, 201]);
  const made = await t.db.db
    .selectFrom('invoices')
    .select('id')
    .where('company_id', '=', tenant.companyId)
    .where('client_id', '=', clientId)
    .execute();
  assert.equal(made.length, 1);
});

test('a client without active contracts gets 200 and nothing; bad bodies and unknown clients are refused', async () => {
  const clientId = await f.client('No Contract Ltd');
  const none = await f.bill(clientId, OCTOBER);
  assert.equal(none.status, 200, none.text);
  assert.deepEqual(none.body.data, { invoices: [], contracts: [] });
  const half = await f.bill(clientId, { date_from: '2026-10-01' });
  assert.equal(half.status, 400);
  assert.equal(half.body.error.details.reason, 'DATE_RANGE_INCOMPLETE');
  const reversed = await f.bill(clientId, { date_from: '2026-10-31', date_to: '2026-10-01' });
  assert.equal(reversed.status, 400);
  assert.equal(reversed.body.error.details.reason, 'INVALID_DATE_RANGE');
  const bad = await f.bill(clientId, { date_from: '2026-13-01', date_to: '2026-10-01' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  const extra = await f.bill(clientId, { date_from: '2026-10-01', date_to: '2026-10-31', client_id: 5 });
  assert.equal(extra.status, 400);
  const missing = await f.bill(2147483000, OCTOBER);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, 'NOT_FOUND');
  const foreign = await t.request('POST', `/clients/${clientId}/invoices`, { body: OCTOBER });
  assert.equal(foreign.status, 404, 'another company’s client');
  const readKey = await t.request('POST', `/clients/${clientId}/invoices`, { body: OCTOBER, tenant, key: 'write' });
  assert.equal(readKey.status, 403);
  assert.equal(readKey.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
});

test('an Idempotency-Key replays the same answer and bills once', async () => {
  const clientId = await f.client('Retry Ltd');
  const contract = await f.contract(clientId);
  await f.row(contract, { description: 'Fee', quantity: '1', net_price: '40' });
  const headers = { 'idempotency-key': 'bill-retry-ltd-october' };
  const first = await t.request('POST', `/clients/${clientId}/invoices`, { body: OCTOBER, tenant, headers });
  const second = await t.request('POST', `/clients/${clientId}/invoices`, { body: OCTOBER, tenant, headers });
  assert.equal(first.status, 201, first.text);
  assert.equal(second.status, 201);
  assert.deepEqual(second.body, first.body);
});
