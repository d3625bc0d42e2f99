import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { billingFixtures } from './support.ts';

const t = await createTestApp();
const tenant = await t.newTenant({ name: 'Lock Co', timezone: 'Europe/Tallinn' });
const f = billingFixtures(t, tenant);
const OCTOBER = { date_from: '2026-10-01', date_to: '2026-10-31' };
const WINDOW = 'date_from=2026-10-01&date_to=2026-10-31';

async function setup(name: string) {
  const clientId = await f.client(name);
  const product = await f.hourly(`${name} hours`);
  await f.price(product, '90');
  const contract = await f.contract(clientId);
  await f.row(contract, { product_id: product });
  await f.row(contract, { description: 'Monthly fee', quantity: '1', net_price: '250' });
  const taskId = await f.task(clientId, null, `${name} task`);
  const ids = await f.entries(taskId, [
    ['2026-10-05T08:00:00Z', '2026-10-05T10:00:00Z'],
    ['2026-10-06T08:00:00Z', '2026-10-06T09:00:00Z'],
  ]);
  return { clientId, contract, taskId, ids };
}

const missed = (query = WINDOW, key = 'admin') =>
  t.request('GET', `/missed-billing?${query}`, { tenant, key: key as 'admin' });

async function invoiceEtag(id: number) {
  return (await t.request('GET', `/invoices/${id}`, { tenant })).headers.get('etag')!;
}

async function setStatus(id: number, status: string) {
  const res = await t.request('PATCH', `/invoices/${id}`, {
    tenant,
    body: { status },
    headers: { 'if-match': await invoiceEtag(id) },
  });
  assert.equal(res.status, 200, res.text);
}

test('missed billing lists unbilled work and fees, agrees with the engine, and sees a released row again', async () => {
  await f.setBilling(true);
  const s = await setup('Missed Ltd');
  const before = await missed(`${WINDOW}&client_id=${s.clientId}`);
  assert.equal(before.status, 200, before.text);
  assert.deepEqual(before.body.failed_clients, []);
  assert.equal(before.body.items.length, 1);
  const [item] = before.body.items;
  assert.equal(item.client_name, 'Missed Ltd');
  assert.deepEqual(
    [item.period_from, item.period_until, item.unbilled_hours, item.time_entries, item.recoverable_value],
    ['2026-10-01', '2026-10-31', 3, 2, 270],
  );
  assert.equal(item.fixed_fee_value, 250);
  assert.deepEqual(before.body.summary, {
    date_from: '2026-10-01',
    date_to: '2026-10-31',
    currency: 'EUR',
    items: 1,
    recoverable_value: 270,
    fixed_fee_value: 250,
    items_unpriced: 0,
  });

  const billed = await f.bill(s.clientId, OCTOBER);
  assert.equal(billed.status, 201, billed.text);
  const invoice = billed.body.data.invoices[0];
  assert.equal(invoice.net_sum, 520, 'the engine bills exactly what the report called missed');
  const after = await missed(`${WINDOW}&client_id=${s.clientId}`);
  assert.deepEqual(after.body.items, []);

  const timeRow = invoice.rows.find((r: { description: string }) => r.description === 'Missed Ltd task');
  const removed = await t.request('DELETE', `/invoices/${invoice.id}/rows/${timeRow.id}`, { tenant });
  assert.equal(removed.status, 204, removed.text);
  const released = await missed(`${WINDOW}&client_id=${s.clientId}`);
  assert.equal(released.body.items.length, 1);
  assert.deepEqual([released.body.items[0].recoverable_value, released.body.items[0].fixed_fee_value], [270, 0]);
});

test('finalized invoices lock their entries and period; drafts do not; annulling releases them', async () => {
  await f.setBilling(true);
  const s = await setup('Locked Ltd');
  const billed = await f.bill(s.clientId, OCTOBER);
  const invoiceId = billed.body.data.invoices[0].id;
  const [first] = s.ids;
  const draftEdit = await t.request('PATCH', `/time-entries/${first}`, { tenant, body: { billable: true } });
  assert.equal(draftEdit.status, 200, 'entries of a draft stay open');

  await setStatus(invoiceId, 'created');
  const deleted = await t.request('DELETE', `/time-entries/${first}`, { tenant });
  assert.equal(deleted.status, 409);
  assert.equal(deleted.body.error.code, 'TIME_ENTRY_LOCKED');
  assert.equal(deleted.body.error.details.invoice_id, invoiceId);
  assert.match(deleted.body.error.details.invoice_number, /\d/);
  for (const body of [{ billable: false }, { end: '2026-10-05T11:00:00Z' }, { duration: 60 }]) {
    const res = await t.request('PATCH', `/time-entries/${first}`, { tenant, body });
    assert.equal(res.status, 409, JSON.stringify(body));
    assert.equal(res.body.error.code, 'TIME_ENTRY_LOCKED');
  }
  const note = await t.request('PATCH', `/time-entries/${first}`, { tenant, body: { description: 'Reviewed' } });
  assert.equal(note.status, 200, 'a description is not money');

  const late = await t.request('POST', '/time-entries', {
    tenant,
    body: {
      task_id: s.taskId,
      person_id: tenant.ownerPersonId,
      start: '2026-10-20T08:00:00Z',
      end: '2026-10-20T09:00:00Z',
    },
  });
  assert.equal(late.status, 409, 'the period is closed for new entries');
  assert.deepEqual(late.body.error.details, {
    invoice_id: invoiceId,
    invoice_number: late.body.error.details.invoice_number,
    period_from: '2026-10-01',
    period_until: '2026-10-31',
  });
  const bulk = await t.request('POST', '/time-entries/bulk', {
    tenant,
    body: {
      entries: [
        {
          task_id: s.taskId,
          person_id: tenant.ownerPersonId,
          start: '2026-11-03T08:00:00Z',
          end: '2026-11-03T09:00:00Z',
        },
        {
          task_id: s.taskId,
          person_id: tenant.ownerPersonId,
          start: '2026-10-31T20:30:00Z',
          end: '2026-10-31T20:45:00Z',
        },
      ],
    },
  });
  assert.equal(bulk.status, 409, '22:30 on 31 October in Tallinn is in the billed period');
  assert.equal(bulk.body.error.code, 'TIME_ENTRY_LOCKED');
  assert.equal(bulk.body.error.details.index, 1);
  // 22:30 UTC on 31 October is 00:30 on 1 November in Tallinn: the local day decides, and November is open.
  const november = await t.request('POST', '/time-entries', {
    tenant,
    body: {
      task_id: s.taskId,
      person_id: tenant.ownerPersonId,
      start: '2026-10-31T22:30:00Z',
      end: '2026-10-31T22:45:00Z',
    },
  });
  assert.equal(november.status, 201, november.text);

  await setStatus(invoiceId, 'annulled');
  const links = await f.links(invoiceId);
  assert.deepEqual(links, [], 'an annulled invoice bills nothing');
  const free = await t.request('DELETE', `/time-entries/${first}`, { tenant });
  assert.equal(free.status, 204);
});

test('missed billing: access, the billing feature, defaults, bad windows, and failed clients', async () => {
  await f.setBilling(true);
  const s = await setup('Broken Ltd');
  const readKey = await missed(WINDOW, 'write');
  assert.equal(readKey.status, 403);
  assert.equal(readKey.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
  const reversed = await missed('date_from=2026-10-31&date_to=2026-10-01');
  assert.equal(reversed.status, 400);
  assert.equal(reversed.body.error.details.reason, 'INVALID_DATE_RANGE');
  const badDate = await missed('date_from=yesterday');
  assert.equal(badDate.status, 422);
  const defaults = await missed('');
  assert.equal(defaults.status, 200, defaults.text);
  const year = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Tallinn' }).format(new Date()).slice(0, 4);
  assert.deepEqual(
    [defaults.body.summary.date_from, defaults.body.summary.date_to],
    [`${year}-01-01`, `${year}-12-31`],
  );

  // A contract whose stored settings cannot be read fails its client only.
  await t.db.db
    .updateTable('contracts')
    .set({ settings: JSON.stringify({ invoice_time_rounding: 'soon' }) } as never)
    .where('company_id', '=', tenant.companyId)
    .where('id', '=', s.contract)
    .execute();
  const partial = await missed();
  assert.equal(partial.status, 200, partial.text);
  assert.deepEqual(
    partial.body.failed_clients.map((c: { client_id: number }) => c.client_id),
    [s.clientId],
  );
  assert.ok(partial.body.items.every((i: { client_id: number }) => i.client_id !== s.clientId));

  await f.setBilling(false);
  const off = await missed();
  assert.equal(off.status, 403);
  assert.equal(off.body.error.code, 'FORBIDDEN');
  assert.equal(off.body.error.details.reason, 'BILLING_NOT_ACTIVE');
  await f.setBilling(true);
});
