import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { contractKit } from './support.ts';

/** PATCH /contracts/{id} is write-tier but for the contract's money fields (decision 0049). */
const t = await createTestApp();
const kit = contractKit(t);
const clientA = await kit.client('Alpha');
const clientB = await kit.client('Beta');

test('PATCH with a write key: name, status, dates, invoice day and plain settings are written; money is 403', async () => {
  const c = await kit.contract({
    name: 'Write tier',
    client_id: clientA,
    settings: { currency: 'EUR' },
    rows: [{ description: 'Fee', net_price: 100 }],
  });
  const res = await t.request('PATCH', `/contracts/${c.id}`, {
    key: 'write',
    body: {
      name: 'Renamed',
      status: 'pending',
      date_from: '2026-01-01',
      date_until: '2099-12-31',
      invoice_day: 15,
      settings: { description: 'Monthly support', invoice_recipients: ['ap@client.example'], reply_to: null },
    },
    headers: { 'if-match': `"${c.updated_at}"` },
  });
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(
    [d.name, d.status, d.date_from, d.date_until, d.invoice_day],
    ['Renamed', 'pending', '2026-01-01', '2099-12-31', 15],
  );
  assert.equal(d.settings, null, 'the billing settings are not read without financials');
  assert.deepEqual(d.rows, [], 'nor the rows and their prices');
  const etag = { 'if-match': res.headers.get('etag')! };
  for (const [body, fields] of [
    [{ client_id: clientB }, ['client_id']],
    [{ invoice_period: 'year' }, ['invoice_period']],
    [{ settings: { description: 'x', currency: 'USD' } }, ['settings.currency']],
    [
      { settings: { is_reverse_charge: true, invoice_time_rounding: 15 } },
      ['settings.is_reverse_charge', 'settings.invoice_time_rounding'],
    ],
  ] as const) {
    const refused = await t.request('PATCH', `/contracts/${c.id}`, { key: 'write', body, headers: etag });
    assert.equal(refused.status, 403, JSON.stringify(body));
    assert.equal(refused.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    assert.deepEqual(refused.body.error.details, { required_scope: 'financials', fields });
  }
  const noMatch = await t.request('PATCH', `/contracts/${c.id}`, { key: 'write', body: { name: 'No' } });
  assert.equal(noMatch.status, 428, 'If-Match is still required');
  const read = (await t.request('GET', `/contracts/${c.id}`)).body.data;
  assert.deepEqual(
    [read.name, read.client_id, read.invoice_period, read.settings.currency, read.settings.description],
    ['Renamed', clientA, 'month', 'EUR', 'Monthly support'],
  );
  assert.deepEqual(read.settings.invoice_recipients, ['ap@client.example']);
  assert.equal(read.rows.length, 1);
});
