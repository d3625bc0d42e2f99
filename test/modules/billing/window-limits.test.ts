import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type Response } from '../../helpers.ts';
import { billingFixtures } from './support.ts';

const t = await createTestApp();
const tenant = await t.newTenant({ name: 'Window Co', timezone: 'Europe/Tallinn' });
const f = billingFixtures(t, tenant);
await f.setBilling(true);

/** An open-ended monthly fee since 2020: every month of any window is a fee period. */
const clientId = await f.client('Forever Ltd');
const contract = await f.contract(clientId, { date_from: '2020-01-01' });
await f.row(contract, { description: 'Retainer', quantity: '1', net_price: '100' });

const missed = (query: string) => t.request('GET', `/missed-billing?${query}`, { tenant });
const thisYear = Number(
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Tallinn' }).format(new Date()).slice(0, 4),
);

const count = async (table: 'invoices' | 'invoice_rows' | 'invoice_row_fees') =>
  Number(
    (
      await t.db.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('company_id', '=', tenant.companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

function assertTooLong(res: Response, days: number): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  assert.equal(res.body.error.details.reason, 'RANGE_TOO_LONG');
  assert.equal(res.body.error.details.max_days, 366);
  assert.equal(res.body.error.details.days, days);
  assert.equal(res.body.error.details.field, 'date_to');
  assert.match(res.body.error.message, /at most 366 days/);
}

test('GET /missed-billing: date_from alone runs to the end of its year, date_to alone starts on 1 January of its', async () => {
  const from = await missed('date_from=2021-03-01');
  assert.equal(from.status, 200, from.text);
  assert.deepEqual([from.body.summary.date_from, from.body.summary.date_to], ['2021-03-01', '2021-12-31']);
  assert.deepEqual(
    from.body.items.map((i: { period_from: string }) => i.period_from),
    ['03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map((m) => `2021-${m}-01`),
  );
  assert.equal(from.body.summary.fixed_fee_value, 1000);

  const to = await missed('date_to=2021-06-30');
  assert.deepEqual([to.body.summary.date_from, to.body.summary.date_to], ['2021-01-01', '2021-06-30']);
  assert.equal(to.body.items.length, 6);

  // A date_from in a later year than this one is a window of that year (it was 400: before 31 December of this one).
  const next = await missed(`date_from=${thisYear + 1}-02-01`);
  assert.equal(next.status, 200, next.text);
  assert.deepEqual(
    [next.body.summary.date_from, next.body.summary.date_to],
    [`${thisYear + 1}-02-01`, `${thisYear + 1}-12-31`],
  );
  assert.deepEqual(next.body.items, [], 'no period of next year is due yet');
});

test('GET /missed-billing: a window over 366 days, a reversed or a year-0000 one is 400 naming the limit', async () => {
  assertTooLong(await missed('date_from=0001-01-01&date_to=9999-12-31'), 3652059);
  assertTooLong(await missed('date_from=2023-01-01&date_to=2024-01-02'), 367);
  const leap = await missed('date_from=2024-01-01&date_to=2024-12-31');
  assert.equal(leap.status, 200, leap.text);
  assert.equal(leap.body.items.length, 12);
  const reversed = await missed('date_from=2024-02-01&date_to=2024-01-31');
  assert.equal(reversed.body.error.details.reason, 'INVALID_DATE_RANGE');
  const zero = await missed('date_from=0000-01-01&date_to=0000-02-01');
  assert.equal(zero.status, 400, zero.text);
  assert.equal(zero.body.error.details.reason, 'OUT_OF_RANGE');
});

test('POST /clients/{id}/invoices: a window over 366 days is 400 naming the limit, and nothing is written', async () => {
  const before = await Promise.all([count('invoices'), count('invoice_rows'), count('invoice_row_fees')]);
  assertTooLong(await f.bill(clientId, { date_from: '0001-01-01', date_to: '9999-12-31' }), 3652059);
  assertTooLong(await f.bill(clientId, { date_from: '2022-01-01', date_to: '2023-01-02' }), 367);
  const zero = await f.bill(clientId, { date_from: '0000-01-01', date_to: '0000-12-31' });
  assert.equal(zero.status, 400, zero.text);
  assert.equal(zero.body.error.details.reason, 'OUT_OF_RANGE');
  assert.deepEqual(await Promise.all([count('invoices'), count('invoice_rows'), count('invoice_row_fees')]), before);

  // A year is billed: one fee row per month.
  const year = await f.bill(clientId, { date_from: '2022-01-01', date_to: '2022-12-31' });
  assert.equal(year.status, 201, year.text);
  assert.equal(year.body.data.contracts[0].fees, 12);
  assert.equal((await count('invoice_row_fees')) - before[2]!, 12);
});
