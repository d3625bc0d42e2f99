import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { reportKit } from './support.ts';

const t = await createTestApp();
const kit = reportKit(t);
const { ownerPersonId: owner, memberPersonId: member } = t.tenant;
const H1 = 'date_from=2025-01-01&date_to=2025-06-30';

// 2025, worked out by hand. Time: owner on Acme 2 h (10 Jan), 1 h (10 Feb), 3 h (2 Apr); member on Beta 4 h
// (20 Feb) and on Acme 1 h (1 Jul). Cost: owner 50/hour; member 3000/month from 15 Feb to 30 Apr (Feb: 14/28).
// Revenue: Acme 1000 (15 Jan, owner, Retainer), 250.50 (3 Feb, member, no product); Beta 99.99 (30 Apr, Retainer);
// annulled, draft and USD invoices left out. Gap: Acme's contract bills billable hours at 100.
const acme = await kit.client('Acme');
const beta = await kit.client('Beta');
const acmeTask = await kit.task('Acme work', { client_id: acme });
const betaTask = await kit.task('Beta work', { client_id: beta });
const retainer = await kit.insert('products', { name: 'Retainer' });
await kit.hourlyContract(acme, '100');
await kit.agreement(owner, { date_from: '2025-01-01', cost_type: 'hour', cost_rate: '50' });
await kit.agreement(member, {
  date_from: '2025-02-15',
  date_until: '2025-04-30',
  cost_type: 'month',
  cost_rate: '3000',
});
await kit.entry(acmeTask, owner, '2025-01-10T09:00:00Z', 2);
await kit.entry(acmeTask, owner, '2025-02-10T09:00:00Z', 1);
await kit.entry(acmeTask, owner, '2025-04-02T09:00:00Z', 3);
await kit.entry(betaTask, member, '2025-02-20T09:00:00Z', 4);
await kit.entry(acmeTask, member, '2025-07-01T09:00:00Z', 1);
await kit.invoice(acme, 'created', '2025-01-15', '1000.00', { person_id: owner, product_id: retainer });
await kit.invoice(acme, 'sent', '2025-02-03', '250.50', { person_id: member });
await kit.invoice(beta, 'paid', '2025-04-30', '99.99', { product_id: retainer });
await kit.invoice(beta, 'annulled', '2025-03-01', '500.00');
await kit.invoice(acme, 'draft', '2025-01-20', '70.00');
await kit.invoice(acme, 'created', '2025-02-01', '10.00', { currency: 'USD' });

async function get(path: string, key = 'admin') {
  const res = await t.request('GET', path, { key });
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  return res;
}

const values = (data: { points: Array<{ value: number | null }> }) => data.points.map((p) => p.value);

test('series by month: hours, revenue and cost per bucket, totals of the points', async () => {
  const hours = (await get(`/reports/bi/series?metric=hours&${H1}`)).body.data;
  assert.equal(hours.interval, 'month');
  assert.equal(hours.unit, 'hours');
  assert.equal(hours.as_of, null);
  assert.deepEqual(hours.points[0], { period_start: '2025-01-01', period_end: '2025-01-31', value: 2 });
  assert.deepEqual(hours.points[1], { period_start: '2025-02-01', period_end: '2025-02-28', value: 5 });
  assert.deepEqual(values(hours), [2, 5, 0, 3, 0, 0]);
  assert.equal(hours.total, 10);

  const revenue = await get(`/reports/bi/series?metric=revenue&${H1}`);
  assert.equal(revenue.body.data.unit, 'EUR');
  assert.deepEqual(values(revenue.body.data), [1000, 250.5, 0, 99.99, 0, 0]);
  assert.equal(revenue.body.data.total, 1350.49);
  assert.equal(revenue.body.warnings[0].code, 'REPORT_CURRENCY_EXCLUDED');

  const cost = (await get(`/reports/bi/series?metric=cost&${H1}`)).body.data;
  assert.deepEqual(values(cost), [100, 1550, 3000, 3150, 0, 0]);
  assert.equal(cost.total, 7800);
});

test('series by quarter and year: buckets are calendar ones, clipped to the window', async () => {
  const quarters = (
    await get('/reports/bi/series?metric=hours&interval=quarter&date_from=2025-02-15&date_to=2025-05-10')
  ).body.data;
  assert.deepEqual(quarters.points, [
    { period_start: '2025-02-15', period_end: '2025-03-31', value: 4 },
    { period_start: '2025-04-01', period_end: '2025-05-10', value: 3 },
  ]);
  const year = (await get('/reports/bi/series?metric=revenue&interval=year&date_from=2024-07-01&date_to=2025-06-30'))
    .body.data;
  assert.deepEqual(year.points, [
    { period_start: '2024-07-01', period_end: '2024-12-31', value: 0 },
    { period_start: '2025-01-01', period_end: '2025-06-30', value: 1350.49 },
  ]);
});

test('series of billing_gap: each month is a window of the missed-billing rules, from the KPI snapshots', async () => {
  const res = await get('/reports/bi/series?metric=billing_gap&date_from=2025-01-01&date_to=2025-07-31');
  assert.deepEqual(values(res.body.data), [200, 100, 0, 300, 0, 0, 100]);
  assert.equal(res.body.data.total, 700);
  assert.match(res.body.data.as_of, /Z$/);
  // The month's KPI summary answers the same gap.
  const july = await t.request('GET', '/reports/kpi-summary?date_from=2025-07-01&date_to=2025-07-31');
  assert.equal(july.body.data.billing_gap, 100);
});

test('breakdown of revenue by client, person and product, largest first, "none" as id null', async () => {
  const byClient = (await get(`/reports/bi/breakdown?metric=revenue&by=client&${H1}`)).body.data;
  assert.deepEqual(byClient.items, [
    { id: acme, name: 'Acme', value: 1250.5 },
    { id: beta, name: 'Beta', value: 99.99 },
  ]);
  assert.equal(byClient.total, 1350.49);
  assert.deepEqual(byClient.others, { count: 0, value: 0 });
  const byPerson = (await get(`/reports/bi/breakdown?metric=revenue&by=person&${H1}`)).body.data;
  assert.deepEqual(byPerson.items, [
    { id: owner, name: 'Olive Owner', value: 1000 },
    { id: member, name: 'Mark Member', value: 250.5 },
    { id: null, name: null, value: 99.99 },
  ]);
  const byProduct = (await get(`/reports/bi/breakdown?metric=revenue&by=product&${H1}`)).body.data;
  assert.deepEqual(byProduct.items, [
    { id: retainer, name: 'Retainer', value: 1099.99 },
    { id: null, name: null, value: 250.5 },
  ]);
  const limited = (await get(`/reports/bi/breakdown?metric=revenue&by=client&limit=1&${H1}`)).body.data;
  assert.deepEqual(limited.items, [{ id: acme, name: 'Acme', value: 1250.5 }]);
  assert.deepEqual(limited.others, { count: 1, value: 99.99 });
  assert.equal(limited.total, 1350.49);
});

test('breakdown of hours by client and person, and of cost by person', async () => {
  const byClient = (await get(`/reports/bi/breakdown?metric=hours&by=client&${H1}`, 'read')).body.data;
  assert.equal(byClient.unit, 'hours');
  assert.deepEqual(byClient.items, [
    { id: acme, name: 'Acme', value: 6 },
    { id: beta, name: 'Beta', value: 4 },
  ]);
  const byPerson = (await get(`/reports/bi/breakdown?metric=hours&by=person&${H1}`)).body.data;
  assert.deepEqual(byPerson.items, [
    { id: owner, name: 'Olive Owner', value: 6 },
    { id: member, name: 'Mark Member', value: 4 },
  ]);
  const cost = (await get(`/reports/bi/breakdown?metric=cost&by=person&${H1}`)).body.data;
  assert.deepEqual(cost.items, [
    { id: member, name: 'Mark Member', value: 7500 },
    { id: owner, name: 'Olive Owner', value: 300 },
  ]);
  assert.equal(cost.total, 7800);
});

test('money metrics need financials (403), hours does not; a personal key counts the time it sees', async () => {
  for (const key of ['read', 'write', 'personal']) {
    for (const path of [
      `/reports/bi/series?metric=revenue&${H1}`,
      `/reports/bi/series?metric=billing_gap&${H1}`,
      `/reports/bi/breakdown?metric=cost&by=person&${H1}`,
    ]) {
      const res = await t.request('GET', path, { key });
      assert.equal(res.status, 403, `${key} ${path}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
      assert.equal(res.body.error.details.required_scope, 'financials');
    }
  }
  const hours = (await get(`/reports/bi/series?metric=hours&${H1}`, 'read')).body.data;
  assert.equal(hours.total, 10);
  const mine = (await get(`/reports/bi/series?metric=hours&${H1}`, 'personal')).body.data;
  assert.equal(mine.total, 4, "a plain member's own Beta hours only");
});

test('unsupported pairs, bad parameters and unknown shapes', async () => {
  for (const [metric, by, supported] of [
    ['hours', 'product', ['client', 'person']],
    ['cost', 'client', ['person']],
    ['billing_gap', 'client', []],
  ] as const) {
    const res = await t.request('GET', `/reports/bi/breakdown?metric=${metric}&by=${by}`);
    assert.equal(res.status, 400, `${metric} by ${by}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.reason, 'UNSUPPORTED_BREAKDOWN');
    assert.deepEqual(res.body.error.details.supported, supported);
  }
  for (const query of [
    'series?interval=month',
    'series?metric=profit',
    'series?metric=hours&interval=week',
    'series?metric=hours&date_from=2025-06-01&date_to=2025-05-01',
    'series?metric=hours&date_from=2024-01-01&date_to=2025-06-30',
    'series?metric=hours%00',
    'breakdown?metric=revenue',
    'breakdown?metric=revenue&by=team',
    'breakdown?metric=revenue&by=client&limit=0',
    'breakdown?metric=revenue&by=client&limit=501',
    'breakdown?metric=revenue&by=client&limit=9223372036854775808',
    'breakdown?metric=revenue&by=client&sort=name',
  ]) {
    const res = await t.request('GET', `/reports/bi/${query}`);
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.ok(['VALIDATION_ERROR', 'UNKNOWN_FILTER_FIELD'].includes(res.body.error.code), query);
  }
  // One path serves both shapes (GET /reports/bi/{shape}); each refuses the other's parameters.
  for (const [query, field] of [
    ['series?metric=hours&by=client', 'by'],
    ['series?metric=hours&limit=5', 'limit'],
    ['breakdown?metric=hours&by=client&interval=month', 'interval'],
  ] as const) {
    const res = await t.request('GET', `/reports/bi/${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.error.code, 'UNKNOWN_FILTER_FIELD');
    assert.equal(res.body.error.details.field, field);
  }
  const noBy = await t.request('GET', '/reports/bi/breakdown?metric=hours');
  assert.deepEqual(noBy.body.error.details, { errors: [{ field: 'by', message: 'is required' }] });
  for (const shape of ['pie', 'series/1', 'Series']) {
    const res = await t.request('GET', `/reports/bi/${shape}?metric=hours`);
    assert.equal(res.status, 404, shape);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
});

test('with billing switched off the gap is not measured: null points and total', async () => {
  await kit.setBilling(false);
  const res = await get('/reports/bi/series?metric=billing_gap&date_from=2025-08-01&date_to=2025-09-30');
  assert.deepEqual(values(res.body.data), [null, null]);
  assert.equal(res.body.data.total, null);
  assert.equal(res.body.data.as_of, null);
});
