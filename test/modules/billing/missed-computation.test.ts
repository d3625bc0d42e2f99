import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { billingFixtures } from './support.ts';

// The set-based missed-billing computation against figures worked out by hand (docs/decisions/0023): a price
// change mid-period, rounding and a minimum, a discount, a non-billable topic and entry, unpriced work, a period
// partly invoiced by the engine, and a contract starting mid-period (pro-rata fee, earlier work not covered).
const t = await createTestApp();
const tenant = await t.newTenant({ name: 'Missed Math Co', timezone: 'Europe/Tallinn' });
const f = billingFixtures(t, tenant);
const WINDOW = 'date_from=2026-08-01&date_to=2026-09-30';

async function priced() {
  const clientId = await f.client('Priced Ltd');
  const consulting = await f.hourly('Consulting');
  await f.price(consulting, '80.00');
  await f.price(consulting, '100.00', '2026-09-16');
  const contract = await f.contract(clientId, { date_from: '2026-08-01' }, { invoice_time_rounding: 15 });
  await f.row(contract, { product_id: consulting, invoice_time_min: 30, discount_rate: '10' });
  await f.row(contract, { description: 'Retainer', quantity: '1', net_price: '200' });
  const work = await f.task(clientId, await f.topic('Advice'), 'Advice');
  const internal = await f.task(clientId, await f.topic('Internal', 0), 'Internal');
  await f.entries(work, [
    ['2026-08-10T09:00:00+03:00', '2026-08-10T10:10:00+03:00'], // 70 min → 75 → 1.25 h at 80 (billed below)
    ['2026-08-11T10:00:00+03:00', '2026-08-11T10:10:00+03:00'], // 10 min → 15 → minimum 30 (billed below)
    { start: '2026-08-13T09:00:00+03:00', end: '2026-08-13T10:00:00+03:00', billable: false }, // not billable
    ['2026-09-10T09:00:00+03:00', '2026-09-10T10:00:00+03:00'], // 1 h at 80
    ['2026-09-20T09:00:00+03:00', '2026-09-20T11:00:00+03:00'], // 2 h at 100 (the price changed on the 16th)
  ]);
  await f.entries(internal, [['2026-08-12T09:00:00+03:00', '2026-08-12T10:00:00+03:00']]); // topic not billable
  return { clientId, contract, work };
}

async function unpriced() {
  const clientId = await f.client('Unpriced Ltd');
  const audit = await f.hourly('Audit hours'); // no price anywhere
  const contract = await f.contract(clientId, { date_from: '2026-09-11' }, { is_summarized: true });
  await f.row(contract, { product_id: audit });
  await f.row(contract, { description: 'Payroll', quantity: '1', net_price: '310' });
  const task = await f.task(clientId, null, 'Audit');
  await f.entries(task, [
    ['2026-09-05T09:00:00+03:00', '2026-09-05T10:00:00+03:00'], // before the contract: nobody bills it
    ['2026-09-15T09:00:00+03:00', '2026-09-15T10:30:00+03:00'], // 1.5 h, no price
  ]);
  return { clientId, contract };
}

test('missed billing matches the hand-computed figures, before and after a period is partly invoiced', async () => {
  await f.setBilling(true);
  const a = await priced();
  const b = await unpriced();

  // August is billed by the engine (1.75 h at 80 less 10 % = 126.00, and the retainer); one more hour is logged
  // in August afterwards, so August is only partly invoiced.
  const billed = await f.bill(a.clientId, { date_from: '2026-08-01', date_to: '2026-08-31' });
  assert.equal(billed.status, 201, billed.text);
  assert.equal(billed.body.data.invoices[0].net_sum, 326);
  await f.entries(a.work, [['2026-08-20T09:00:00+03:00', '2026-08-20T10:00:00+03:00']]);

  const res = await t.request('GET', `/missed-billing?${WINDOW}`, { tenant });
  assert.equal(res.status, 200, res.text);
  const rows = res.body.items.map((i: Record<string, unknown>) => [
    i.client_id,
    i.contract_id,
    i.period_from,
    i.period_until,
    i.unbilled_hours,
    i.time_entries,
    i.unpriced_entries,
    i.recoverable_value,
    i.fixed_fee_value,
  ]);
  assert.deepEqual(rows, [
    // the late August hour at 80 less 10 %; the retainer was billed
    [a.clientId, a.contract, '2026-08-01', '2026-08-31', 1, 1, 0, 72, 0],
    // 1 h at 80 and 2 h at 100 (two rows, each less 10 %: 72 + 180), and the retainer
    [a.clientId, a.contract, '2026-09-01', '2026-09-30', 3, 2, 0, 252, 200],
    // from the 11th: 20 of 30 days of 310 (0.6667 × 310 = 206.68); 1.5 h without a price
    [b.clientId, b.contract, '2026-09-01', '2026-09-30', 1.5, 1, 1, 0, 206.68],
  ]);
  assert.deepEqual(res.body.failed_clients, []);
  assert.deepEqual(res.body.summary, {
    date_from: '2026-08-01',
    date_to: '2026-09-30',
    currency: 'EUR',
    items: 3,
    recoverable_value: 324,
    fixed_fee_value: 406.68,
    items_unpriced: 1,
  });

  // One client's answer is the same computation narrowed, not a different one.
  const one = await t.request('GET', `/missed-billing?${WINDOW}&client_id=${b.clientId}`, { tenant });
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.items, [res.body.items[2]]);
  assert.equal(one.body.summary.fixed_fee_value, 206.68);
});
