import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { billingFixtures } from '../billing/support.ts';

// Issue 24 item 12: a finalized period is closed both ways. An entry inside it, billed or not, can neither be
// deleted nor moved out; one outside it cannot be created in it or moved into it (decision 0050).
const t = await createTestApp();
const tenant = await t.newTenant({ name: 'Period Co', timezone: 'Europe/Tallinn' });
const f = billingFixtures(t, tenant);

const stored = (id: number) =>
  t.db.db
    .selectFrom('time_entries')
    .select(['start', 'deleted_at'])
    .where('company_id', '=', tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

async function finalize(invoiceId: number, status: 'created' | 'annulled') {
  const etag = (await t.request('GET', `/invoices/${invoiceId}`, { tenant })).headers.get('etag')!;
  const res = await t.request('PATCH', `/invoices/${invoiceId}`, {
    tenant,
    body: { status },
    headers: { 'if-match': etag },
  });
  assert.equal(res.status, 200, res.text);
}

test('an entry inside a finalized period is locked even when the invoice did not bill it', async () => {
  await f.setBilling(true);
  const clientId = await f.client('Closed Period Ltd');
  const product = await f.hourly('Closed hours');
  await f.price(product, '80');
  const contract = await f.contract(clientId);
  await f.row(contract, { product_id: product });
  const taskId = await f.task(clientId, null, 'Closed task');
  const [billed, unbilled] = await f.entries(taskId, [
    ['2026-10-05T08:00:00Z', '2026-10-05T10:00:00Z'],
    { start: '2026-10-12T08:00:00Z', end: '2026-10-12T09:00:00Z', billable: false },
  ]);
  const run = await f.bill(clientId, { date_from: '2026-10-01', date_to: '2026-10-31' });
  assert.equal(run.status, 201, run.text);
  const invoiceId = run.body.data.invoices[0].id;
  assert.deepEqual(
    (await f.links(invoiceId)).map((l) => l.time_entry_id),
    [billed],
    'the engine billed the billable entry only',
  );
  await finalize(invoiceId, 'created');

  const deleted = await t.request('DELETE', `/time-entries/${unbilled}`, { tenant });
  assert.equal(deleted.status, 409, deleted.text);
  assert.equal(deleted.body.error.code, 'TIME_ENTRY_LOCKED');
  assert.deepEqual(deleted.body.error.details, {
    invoice_id: invoiceId,
    invoice_number: deleted.body.error.details.invoice_number,
    period_from: '2026-10-01',
    period_until: '2026-10-31',
  });
  assert.match(deleted.body.error.details.invoice_number, /\d/);
  assert.equal((await stored(unbilled)).deleted_at, null, 'the entry is still there');

  const movedOut = await t.request('PATCH', `/time-entries/${unbilled}`, {
    tenant,
    body: { start: '2026-11-02T08:00:00Z', end: '2026-11-02T09:00:00Z' },
  });
  assert.equal(movedOut.status, 409, 'moving it out of the period empties the period as a delete would');
  assert.equal(movedOut.body.error.code, 'TIME_ENTRY_LOCKED');
  assert.equal((await stored(unbilled)).start, '2026-10-12T08:00:00.000Z');
  const described = await t.request('PATCH', `/time-entries/${unbilled}`, { tenant, body: { description: 'Noted' } });
  assert.equal(described.status, 200, 'a description is not money');

  // Outside the period nothing is locked.
  const [november] = await f.entries(taskId, [['2026-11-03T08:00:00Z', '2026-11-03T09:00:00Z']]);
  assert.equal((await t.request('DELETE', `/time-entries/${november}`, { tenant })).status, 204);

  await finalize(invoiceId, 'annulled');
  assert.equal((await t.request('DELETE', `/time-entries/${unbilled}`, { tenant })).status, 204, 'annulled: open');
  assert.notEqual((await stored(unbilled)).deleted_at, null);
});

test('the OpenAPI document lists TIME_ENTRY_LOCKED on every time-entry route that can answer it', async () => {
  const document = (await t.request('GET', '/api/v3/openapi.json', { key: null, company: null })).body;
  const operations: Array<[string, string]> = [
    ['/time-entries', 'post'],
    ['/time-entries/bulk', 'post'],
    ['/time-entries/{time_entry_id}', 'patch'],
    ['/time-entries/{time_entry_id}', 'delete'],
  ];
  for (const [path, method] of operations) {
    const operation = document.paths[path][method];
    assert.ok(operation['x-error-codes'].includes('TIME_ENTRY_LOCKED'), `${method} ${path}`);
    assert.match(operation.responses['409'].description, /TIME_ENTRY_LOCKED/, `${method} ${path}`);
  }
});
