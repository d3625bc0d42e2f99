import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { reportKit } from './support.ts';

const t = await createTestApp();
// Tallinn: UTC+2 in winter, UTC+3 from the last Sunday of March (30 March 2025).
const tallinn = await t.newTenant({ name: 'Tallinn Co', timezone: 'Europe/Tallinn' });
const kit = reportKit(t, tallinn);
const person = tallinn.ownerPersonId;
const work = await kit.task('Work');

test('kpi-summary: local days in the company time zone decide the window, at both ends and across DST', async () => {
  await kit.entry(work, person, '2025-02-28T22:30:00Z', 1); // 1 March 00:30 local: in March
  await kit.entry(work, person, '2025-02-28T21:30:00Z', 2); // 28 February 23:30 local: not
  await kit.entry(work, person, '2025-03-31T20:30:00Z', 4); // 31 March 23:30 local (EEST): in March
  await kit.entry(work, person, '2025-03-31T21:30:00Z', 8); // 1 April 00:30 local: not
  const march = await kit.kpi('date_from=2025-03-01&date_to=2025-03-31');
  assert.equal(march.body.data.timezone, 'Europe/Tallinn');
  assert.equal(march.body.data.hours_total, 5);
  const april = await kit.kpi('date_from=2025-04-01&date_to=2025-04-30');
  assert.equal(april.body.data.hours_total, 8);
  const february = await kit.kpi('date_from=2025-02-01&date_to=2025-02-28');
  assert.equal(february.body.data.hours_total, 2);
});

test('kpi-summary: default window is the calendar year (this year, or the year of the one date sent)', async () => {
  const year = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Tallinn', year: 'numeric' }).format(new Date());
  const plain = await kit.kpi('');
  assert.equal(plain.body.data.date_from, `${year}-01-01`);
  assert.equal(plain.body.data.date_to, `${year}-12-31`);
  const onlyTo = await kit.kpi('date_to=2025-03-31');
  assert.deepEqual([onlyTo.body.data.date_from, onlyTo.body.data.date_to], ['2025-01-01', '2025-03-31']);
  assert.equal(onlyTo.body.data.hours_total, 7);
  const onlyFrom = await kit.kpi('date_from=2025-06-01');
  assert.deepEqual([onlyFrom.body.data.date_from, onlyFrom.body.data.date_to], ['2025-06-01', '2025-12-31']);
  // A leap year's 366 days are one window.
  const leap = await kit.kpi('date_from=2024-01-01&date_to=2024-12-31');
  assert.equal(leap.body.data.date_to, '2024-12-31');
});

test('kpi-summary: bad windows and parameters are 400 with the usual error body', async () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['date_from=2025-02-30', 'VALIDATION_ERROR', undefined],
    ['date_from=2025-13-01', 'VALIDATION_ERROR', undefined],
    ['date_from=yesterday', 'VALIDATION_ERROR', undefined],
    ['date_to=2025-03-01T00:00:00Z', 'VALIDATION_ERROR', undefined],
    ['date_from=2025-03-02&date_to=2025-03-01', 'VALIDATION_ERROR', 'INVALID_DATE_RANGE'],
    ['date_from=2025-01-01&date_to=2026-01-02', 'VALIDATION_ERROR', 'RANGE_TOO_LONG'],
    ['date_from=0000-01-01&date_to=0000-02-01', 'VALIDATION_ERROR', 'OUT_OF_RANGE'],
    ['date_from=2025-01-01%00', 'VALIDATION_ERROR', undefined],
    [`date_from=${'9'.repeat(3000)}`, 'VALIDATION_ERROR', undefined],
    ['date_from=1e308', 'VALIDATION_ERROR', undefined],
    ['month=3', 'UNKNOWN_FILTER_FIELD', undefined],
  ];
  for (const [query, code, reason] of cases) {
    const res = await t.request('GET', `/reports/kpi-summary?${query}`, { tenant: tallinn });
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.equal(res.body.error.code, code, query);
    assert.equal(typeof res.body.error.message, 'string');
    if (reason) assert.equal(res.body.error.details.reason, reason, query);
  }
  const long = await t.request('GET', '/reports/kpi-summary?date_from=2025-01-01&date_to=2026-01-02', {
    tenant: tallinn,
  });
  assert.equal(long.body.error.details.max_days, 366);
  // Years below 1000 are real dates too.
  const ancient = await kit.kpi('date_from=0099-01-01&date_to=0099-12-31');
  assert.equal(ancient.body.data.date_from, '0099-01-01');
  assert.equal(ancient.body.data.bi_state, 'empty');
});

test('kpi-summary: needs a key, and a key of this company', async () => {
  const none = await t.request('GET', '/reports/kpi-summary', { key: null, tenant: tallinn });
  assert.equal(none.status, 401);
  assert.equal(none.body.error.code, 'MISSING_AUTH');
  const foreign = await t.request('GET', '/reports/kpi-summary', { key: t.tenant.keys.admin, tenant: tallinn });
  assert.equal(foreign.status, 401);
  assert.equal(foreign.body.error.code, 'UNAUTHORIZED');
});
