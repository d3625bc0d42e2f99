import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { reportKit } from './support.ts';

const t = await createTestApp();
const kit = reportKit(t);
const { ownerPersonId: owner, memberPersonId: member } = t.tenant;
const MARCH = 'date_from=2025-03-01&date_to=2025-03-31';

// March 2025 of the test company (UTC, EUR), worked out by hand:
// time: owner 2 h billable + 1.5 h non-billable entry + 1 h on a non-billable topic; member 3 h billable → 7.5 h,
//   5 h billable. Outside: 5 h on 28 Feb, a running entry, a deleted entry.
// cost: owner hourly 40.50 × 4.5 h = 182.25; member monthly 3100 from 11 March = 3100 × 21/31 = 2100.00 → 2282.25.
// revenue: created 1000.10 + sent 200.20 + paid 300.30 = 1500.60 (annulled 999, drafts, February, USD left out).
// draft_revenue: 50.05. operating_profit: 1500.60 − 2282.25 = −781.65.
// billing_gap: 5 billable hours on the contracted client at 95.00 = 475.00.
const acme = await kit.client('Acme');
const billableTopic = await kit.topic('Advice', true);
const internalTopic = await kit.topic('Internal', false);
const advice = await kit.task('Advice', { client_id: acme, topic_id: billableTopic });
const internal = await kit.task('Housekeeping', { client_id: acme, topic_id: internalTopic });
await kit.hourlyContract(acme, '95');
await kit.agreement(owner, { date_from: '2025-01-01', cost_type: 'hour', cost_rate: '40.50' });
await kit.agreement(member, { date_from: '2025-03-11', cost_type: 'month', cost_rate: '3100' });
await kit.entry(advice, owner, '2025-03-05T09:00:00Z', 2);
await kit.entry(advice, owner, '2025-03-06T09:00:00Z', 1.5, false);
await kit.entry(internal, owner, '2025-03-07T09:00:00Z', 1);
await kit.entry(advice, member, '2025-03-12T09:00:00Z', 3);
await kit.entry(advice, owner, '2025-02-28T09:00:00Z', 5);
const running = await t.request('POST', '/time-entries', {
  body: { task_id: advice, person_id: member, start: '2025-03-20T09:00:00Z' },
});
assert.equal(running.status, 201, running.text);
const deleted = await kit.entry(advice, owner, '2025-03-21T09:00:00Z', 4);
assert.equal((await t.request('DELETE', `/time-entries/${deleted}`)).status, 204);
await kit.invoice(acme, 'created', '2025-03-01', '1000.10');
await kit.invoice(acme, 'sent', '2025-03-31', '200.20');
await kit.invoice(acme, 'paid', '2025-03-15', '300.30');
await kit.invoice(acme, 'annulled', '2025-03-10', '999.00');
await kit.invoice(acme, 'draft', '2025-03-20', '50.05');
await kit.invoice(acme, 'draft', '2025-04-01', '7.00');
await kit.invoice(acme, 'created', '2025-02-28', '400.00');
await kit.invoice(acme, 'created', '2025-03-15', '123.00', { currency: 'USD' });

test('kpi-summary: worked figures to the cent for an admin key', async () => {
  const res = await kit.kpi(MARCH);
  const { as_of, ...data } = res.body.data;
  assert.deepEqual(data, {
    date_from: '2025-03-01',
    date_to: '2025-03-31',
    timezone: 'UTC',
    currency: 'EUR',
    bi_state: 'ok',
    hours_total: 7.5,
    hours_billable: 5,
    revenue: 1500.6,
    cost: 2282.25,
    operating_profit: -781.65,
    billing_gap: 475,
    billing_gap_details: { recoverable_value: 475, fixed_fee_value: 0, items_unpriced: 0 },
    draft_revenue: 50.05,
  });
  assert.match(as_of, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.deepEqual(res.body.warnings, [
    {
      code: 'REPORT_CURRENCY_EXCLUDED',
      message: 'Invoices not in EUR are left out of the money figures (no conversion is made)',
      details: { currency: 'EUR', excluded: [{ currency: 'USD', invoices: 1 }] },
    },
  ]);
  assert.ok(res.headers.get('x-service-warning')?.includes('REPORT_CURRENCY_EXCLUDED'));
  assert.equal(res.headers.get('x-api-preview'), null, 'kpi-summary is a stable resource');
});

test('kpi-summary: read and write keys get hours and bi_state, every money key null, no money warning', async () => {
  for (const key of ['read', 'write']) {
    const res = await kit.kpi(MARCH, key);
    const d = res.body.data;
    assert.equal(d.hours_total, 7.5);
    assert.equal(d.hours_billable, 5);
    assert.equal(d.bi_state, 'ok');
    for (const field of ['revenue', 'cost', 'operating_profit', 'billing_gap', 'billing_gap_details', 'draft_revenue'])
      assert.equal(d[field], null, `${key}: ${field}`);
    assert.equal(res.body.warnings, undefined);
  }
});

test('kpi-summary: a personal key of a plain member counts only the time it can see', async () => {
  // The member sees its own entries (3 h) but not the owner's on a client it is not a member of.
  const res = await kit.kpi(MARCH, 'personal');
  assert.equal(res.body.data.hours_total, 3);
  assert.equal(res.body.data.hours_billable, 3);
  assert.equal(res.body.data.revenue, null);
  assert.equal(res.body.data.bi_state, 'ok', 'bi_state describes the company');
  const owners = await kit.kpi(MARCH, 'personalAdmin');
  assert.equal(owners.body.data.hours_total, 7.5, "an owner's personal key sees the company");
});

test('kpi-summary: the window edges — an invoice on the last day counts, the next day does not', async () => {
  const lastDay = await kit.kpi('date_from=2025-03-31&date_to=2025-03-31');
  assert.equal(lastDay.body.data.revenue, 200.2);
  assert.equal(lastDay.body.data.draft_revenue, 0);
  assert.equal(lastDay.body.data.hours_total, 0);
  assert.equal(lastDay.body.data.bi_state, 'invoicing_only');
  const april = await kit.kpi('date_from=2025-04-01&date_to=2025-04-01');
  assert.equal(april.body.data.revenue, 0);
  assert.equal(april.body.data.draft_revenue, 7);
  assert.equal(april.body.data.bi_state, 'invoicing_only', 'a draft is an invoice of the window');
  // A monthly agreement costs its share of the days of the window: one day of March = 3100 / 31 = 100.00.
  assert.equal(lastDay.body.data.cost, 100);
});

test('kpi-summary: bi_state empty, no_rates and not_billing', async () => {
  const empty = await kit.kpi('date_from=2024-05-01&date_to=2024-05-31');
  assert.equal(empty.body.data.bi_state, 'empty');
  assert.equal(empty.body.data.hours_total, 0);
  assert.equal(empty.body.data.revenue, 0);
  assert.equal(empty.body.data.billing_gap, 0);

  // A fresh company: time but no agreement with a cost rate and no price anywhere.
  const bare = await t.newTenant({ name: 'Bare Co' });
  const bareKit = reportKit(t, bare);
  const work = await bareKit.task('Work');
  await bareKit.entry(work, bare.ownerPersonId, '2025-03-03T10:00:00Z', 1);
  const noRates = await bareKit.kpi(MARCH);
  assert.equal(noRates.body.data.bi_state, 'no_rates');
  assert.equal(noRates.body.data.cost, 0);

  // A cost rate alone is a rate: the cost can be measured.
  await bareKit.agreement(bare.ownerPersonId, { date_from: '2025-01-01', cost_rate: '20' });
  const costed = await bareKit.kpi('date_from=2025-03-01&date_to=2025-03-30');
  assert.equal(costed.body.data.bi_state, 'ok');
  assert.equal(costed.body.data.cost, 20);

  await bareKit.setBilling(false);
  const off = await bareKit.kpi('date_from=2025-03-01&date_to=2025-03-29');
  assert.equal(off.body.data.bi_state, 'not_billing');
  assert.equal(off.body.data.billing_gap, null, 'no billing: no gap is measured');
  assert.equal(off.body.data.billing_gap_details, null);
  assert.equal(off.body.data.cost, 20, 'the other money keys are still there');
  assert.equal(off.body.data.hours_total, 1);
});

test('kpi-summary: another company sees none of these figures', async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const res = await reportKit(t, other).kpi(MARCH);
  assert.equal(res.body.data.hours_total, 0);
  assert.equal(res.body.data.revenue, 0);
  assert.equal(res.body.data.cost, 0);
  assert.equal(res.body.data.bi_state, 'empty');
});
