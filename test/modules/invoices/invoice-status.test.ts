import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { invoiceFixtures } from './support.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const f = invoiceFixtures(t);

const clientId = await f.client();
const vat = await f.tax('VAT 22', '0.22');
const sellerId = await f.seller();
await f.billingSettings({ invoice_number_format: 'INV-{yyyy}-{seq:4}' });

const draft = (extra: Record<string, unknown> = {}) =>
  f.invoice({
    client_id: clientId,
    seller_id: sellerId,
    invoice_date: '2026-02-10',
    rows: [{ quantity: 1, net_price: 100, tax_id: vat }],
    ...extra,
  });

async function patch(id: number, body: Record<string, unknown>, ifMatch?: string) {
  return t.request('PATCH', `/invoices/${id}`, { body, headers: { 'if-match': ifMatch ?? (await f.etag(id)) } });
}
async function action(id: number, name: string, ifMatch?: string | null) {
  const headers: Record<string, string> = {};
  const value = ifMatch === undefined ? await f.etag(id) : ifMatch;
  if (value !== null) headers['if-match'] = value;
  return t.request('POST', `/invoices/${id}/${name}`, { headers });
}

test('finalizing (status created) assigns the next number of the format scope; drafts have none', async () => {
  const a = await draft();
  const b = await draft();
  assert.equal(a.invoice_number, null);
  const fa = await f.finalize(a.id);
  const fb = await f.finalize(b.id);
  assert.deepEqual([fa.status, fa.invoice_number], ['created', 'INV-2026-0001']);
  assert.equal(fb.invoice_number, 'INV-2026-0002');
  const nextYear = await draft({ invoice_date: '2027-01-05' });
  assert.equal((await f.finalize(nextYear.id)).invoice_number, 'INV-2027-0001', '{yyyy} restarts the count');
  const contractId = await f.contract(clientId, { invoice_number_format: 'K-{seq}' });
  const viaContract = await draft({ contract_id: contractId });
  assert.equal((await f.finalize(viaContract.id)).invoice_number, 'K-1', "the contract's format wins");
  assert.ok((await f.stored(a.id)).finalized_at);
  // Another company counts on its own.
  const theirs = await f.invoice({ client_id: await f.client({}, other), rows: [{ net_price: 1 }] }, other);
  assert.equal((await f.finalize(theirs.id, other)).invoice_number, '1');
});

test('a draft without rows is not finalized (no number is spent on it)', async () => {
  const empty = await draft({ rows: [] });
  const res = await patch(empty.id, { status: 'created' });
  assert.equal(res.status, 409);
  assert.equal(res.body.error.code, 'INVALID_STATUS_TRANSITION');
  assert.equal(res.body.error.details.reason, 'NO_ROWS');
  assert.equal((await f.stored(empty.id)).status, 'draft');
  const counter = await t.db.db
    .selectFrom('invoice_number_counters')
    .select('last_value')
    .where('company_id', '=', t.tenant.companyId)
    .where('scope', '=', 'INV-2026-{seq:4}')
    .executeTakeFirstOrThrow();
  const numbered = await t.db.db
    .selectFrom('invoices')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('invoice_number', 'like', 'INV-2026-%')
    .execute();
  assert.equal(Number(counter.last_value), numbered.length, 'the counter did not move');
});

test('status transitions: annul from created/sent/paid; anything else is 409', async () => {
  const inv = await f.finalize((await draft()).id);
  const cases: Array<[string, string]> = [
    ['sent', 'STATUS_TRANSITION_NOT_SUPPORTED'],
    ['paid', 'STATUS_TRANSITION_NOT_SUPPORTED'],
    ['draft', 'INVALID_STATUS_TRANSITION'],
  ];
  for (const [status, code] of cases) {
    const res = await patch(inv.id, { status });
    assert.equal(res.status, 409, status);
    assert.equal(res.body.error.code, code);
    assert.deepEqual([res.body.error.details.from, res.body.error.details.to], ['created', status]);
  }
  const d = await draft();
  const annulDraft = await patch(d.id, { status: 'annulled' });
  assert.equal(annulDraft.body.error.code, 'INVALID_STATUS_TRANSITION');
  const same = await patch(inv.id, { status: 'created' });
  assert.equal(same.status, 200, 'sending the current status is no transition');
  assert.equal(same.body.data.invoice_number, inv.invoice_number);
  const annulled = await patch(inv.id, { status: 'annulled' });
  assert.equal(annulled.status, 200);
  assert.equal(annulled.body.data.status, 'annulled');
  assert.equal(annulled.body.warnings, undefined, 'a bare status change is not a header edit');
  for (const status of ['created', 'draft']) {
    const back = await patch(inv.id, { status });
    assert.equal(back.body.error.code, 'INVALID_STATUS_TRANSITION');
  }
  const paid = await f.finalize((await draft()).id);
  assert.equal((await action(paid.id, 'mark-paid')).status, 200);
  assert.equal((await patch(paid.id, { status: 'annulled' })).body.data.status, 'annulled');
});

test('header edits of a finalized invoice succeed with INVOICE_EDITED_WHILE_LOCKED {status, edited_fields}', async () => {
  const inv = await f.finalize((await draft()).id);
  const res = await patch(inv.id, { comments: 'Late note', due_date: '2026-03-31', status: 'created' });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.warnings, [
    {
      code: 'INVOICE_EDITED_WHILE_LOCKED',
      message: 'The invoice is created; the header change was saved',
      details: { status: 'created', edited_fields: ['due_date', 'comments'] },
    },
  ]);
  assert.equal(JSON.parse(res.headers.get('x-service-warning')!)[0].code, 'INVOICE_EDITED_WHILE_LOCKED');
  assert.equal(res.body.data.status, 'created');
  assert.equal(res.body.data.comments, 'Late note');
  const annul = await patch(inv.id, { status: 'annulled', reference_number: 'X' });
  assert.deepEqual(annul.body.warnings[0].details, { status: 'annulled', edited_fields: ['reference_number'] });
});

test('snapshots: finalization copies the client and seller as they are then; later renames change nothing', async () => {
  const client = await f.client({ name: 'Before Ltd' });
  await f.contact(client, { name: 'Ann', surname: null, email: 'ann@before.example' });
  const seller = await f.seller({ name: 'Seller One' });
  const inv = await f.invoice({ client_id: client, seller_id: seller, rows: [{ net_price: 1 }] });
  assert.equal(inv.client_name, 'Before Ltd');
  const rename = await t.request('PATCH', `/clients/${client}`, { body: { name: 'During Ltd', vat_code: 'EE999' } });
  assert.equal(rename.status, 200, rename.text);
  await t.db.db
    .updateTable('invoice_sellers')
    .set({ name: 'Seller Two', iban_1: 'EE00' })
    .where('id', '=', seller)
    .execute();
  const fin = await f.finalize(inv.id);
  assert.deepEqual(
    [fin.client_name, fin.client_vat_code, fin.client_contact, fin.seller_name],
    ['During Ltd', 'EE999', 'Ann <ann@before.example>', 'Seller Two'],
  );
  assert.equal((await f.stored(inv.id)).seller_iban, 'EE00');
  await t.request('PATCH', `/clients/${client}`, { body: { name: 'After Ltd' } });
  await t.db.db.updateTable('invoice_sellers').set({ name: 'Seller Three' }).where('id', '=', seller).execute();
  const read = (await t.request('GET', `/invoices/${inv.id}`)).body.data;
  assert.deepEqual(
    [read.client_name, read.client_vat_code, read.seller_name, read.invoice_number],
    ['During Ltd', 'EE999', 'Seller Two', fin.invoice_number],
  );
});

test('mark-paid: admin + If-Match; created or sent → paid with paid_at and paid_sum; others 409 INVOICE_NOT_PAYABLE', async () => {
  const d = await draft();
  const notPayable = await action(d.id, 'mark-paid');
  assert.equal(notPayable.status, 409);
  assert.equal(notPayable.body.error.code, 'INVOICE_NOT_PAYABLE');
  assert.equal(notPayable.body.error.details.status, 'draft');
  const inv = await f.finalize(d.id);
  const missing = await action(inv.id, 'mark-paid', null);
  assert.equal(missing.status, 428);
  assert.equal(missing.body.error.code, 'PRECONDITION_REQUIRED');
  const stale = await action(inv.id, 'mark-paid', '"2020-01-01T00:00:00.000Z"');
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  assert.equal(await action(inv.id, 'mark-paid', null).then((r) => r.status), 428);
  const paid = await action(inv.id, 'mark-paid', `"${inv.updated_at}"`);
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.body.data.status, 'paid');
  assert.equal(paid.body.data.paid_sum, 122);
  assert.ok(Date.now() - Date.parse(paid.body.data.paid_at) < 60_000);
  assert.equal(paid.headers.get('etag'), `"${paid.body.data.updated_at}"`);
  const again = await action(inv.id, 'mark-paid');
  assert.equal(again.body.error.code, 'INVOICE_NOT_PAYABLE');
  assert.equal((await action(2147483000, 'mark-paid', '*')).status, 404);
  assert.equal(
    (await t.request('POST', `/invoices/${inv.id}/mark-paid`, { tenant: other, headers: { 'if-match': '*' } })).status,
    404,
  );
  const events = (await f.events(inv.id)).map((e) => e.event);
  assert.deepEqual(events, ['invoice.created', 'invoice.updated', 'invoice.updated']);
});

test('mark-paid checks the status before If-Match, as send does: 409 INVOICE_NOT_PAYABLE with or without one', async () => {
  const d = await draft();
  const paid = await f.finalize((await draft()).id);
  assert.equal((await action(paid.id, 'mark-paid')).status, 200);
  const annulled = await f.finalize((await draft()).id);
  assert.equal((await patch(annulled.id, { status: 'annulled' })).status, 200);
  for (const [id, status] of [
    [d.id, 'draft'],
    [paid.id, 'paid'],
    [annulled.id, 'annulled'],
  ] as const) {
    const before = await f.etag(id);
    for (const ifMatch of [null, '*', '"2020-01-01T00:00:00.000Z"', before]) {
      const res = await action(id, 'mark-paid', ifMatch);
      assert.equal(res.status, 409, `${status} If-Match ${ifMatch}: ${res.text}`);
      assert.equal(res.body.error.code, 'INVOICE_NOT_PAYABLE');
      assert.equal(res.body.error.details.status, status);
    }
    assert.equal(await f.etag(id), before, 'nothing written');
  }
});

test('mark-unpaid: paid → created (or sent when it was sent), paid_at null, paid_sum 0; other statuses 409', async () => {
  const inv = await f.finalize((await draft()).id);
  const notPaid = await action(inv.id, 'mark-unpaid', null);
  assert.equal(notPaid.status, 409);
  assert.equal(notPaid.body.error.code, 'INVOICE_NOT_PAYABLE');
  await action(inv.id, 'mark-paid');
  const stale = await action(inv.id, 'mark-unpaid', `"${inv.updated_at}"`);
  assert.equal(stale.status, 412, 'If-Match is optional, but checked when sent');
  const unpaid = await action(inv.id, 'mark-unpaid', null);
  assert.equal(unpaid.status, 200, unpaid.text);
  assert.deepEqual(
    [unpaid.body.data.status, unpaid.body.data.paid_at, unpaid.body.data.paid_sum],
    ['created', null, 0],
  );
  // A sent invoice (sent_at set by the send job) goes back to sent.
  await t.db.db
    .updateTable('invoices')
    .set({ status: 'sent', sent_at: new Date().toISOString() })
    .where('id', '=', inv.id)
    .execute();
  await action(inv.id, 'mark-paid');
  const back = await action(inv.id, 'mark-unpaid');
  assert.equal(back.body.data.status, 'sent');
  assert.equal((await action(inv.id, 'mark-unpaid', null)).body.error.code, 'INVOICE_NOT_PAYABLE');
  assert.equal((await action(2147483000, 'mark-unpaid', null)).status, 404);
  const foreign = await t.request('POST', `/invoices/${inv.id}/mark-unpaid`, { tenant: other });
  assert.equal(foreign.body.error.code, 'NOT_FOUND');
});

test('row writes on a finalized invoice warn with {status, change, total_sum, paid_sum, overpaid}; delete is a bare 204', async () => {
  const inv = await f.finalize((await draft()).id);
  const created = await t.request('POST', `/invoices/${inv.id}/rows`, { body: { net_price: 50 } });
  assert.equal(created.status, 201);
  assert.deepEqual(created.body.warnings, [
    {
      code: 'INVOICE_EDITED_WHILE_LOCKED',
      message: 'The invoice is created; the row change was saved and its totals recomputed',
      details: { status: 'created', change: 'row_created', total_sum: 172, paid_sum: 0, overpaid: false },
    },
  ]);
  await action(inv.id, 'mark-paid');
  const shrunk = await t.request('PATCH', `/invoices/${inv.id}/rows/${created.body.data.id}`, {
    body: { net_price: 10 },
  });
  assert.equal(shrunk.status, 200);
  assert.deepEqual(shrunk.body.warnings[0].details, {
    status: 'paid',
    change: 'row_updated',
    total_sum: 132,
    paid_sum: 172,
    overpaid: true,
  });
  const del = await t.request('DELETE', `/invoices/${inv.id}/rows/${created.body.data.id}`);
  assert.equal(del.status, 204);
  assert.equal(del.headers.get('x-service-warning'), null);
  const after = (await t.request('GET', `/invoices/${inv.id}`)).body.data;
  assert.deepEqual([after.status, after.total_sum, after.paid_sum], ['paid', 122, 172]);
});

test('refresh-payment-status reconciles the status with the recorded paid_sum and answers the invoice', async () => {
  const inv = await f.finalize((await draft()).id);
  const nothing = await action(inv.id, 'refresh-payment-status', null);
  assert.equal(nothing.status, 200);
  assert.equal(nothing.body.data.status, 'created');
  assert.equal(nothing.body.data.updated_at, inv.updated_at, 'nothing to reconcile: nothing written');
  await action(inv.id, 'mark-paid');
  // The total grows past what was paid: the invoice is no longer fully paid.
  await t.request('POST', `/invoices/${inv.id}/rows`, { body: { net_price: 10 } });
  const reopened = await action(inv.id, 'refresh-payment-status', null);
  assert.deepEqual(
    [reopened.body.data.status, reopened.body.data.paid_sum, reopened.body.data.paid_at],
    ['created', 122, null],
  );
  // Paid in full again once the extra row is gone.
  const rows = (await t.request('GET', `/invoices/${inv.id}/rows`)).body.data;
  await t.request('DELETE', `/invoices/${inv.id}/rows/${rows[1].id}`);
  const repaid = await action(inv.id, 'refresh-payment-status', null);
  assert.equal(repaid.body.data.status, 'paid');
  assert.ok(repaid.body.data.paid_at);
  assert.equal((await action(2147483000, 'refresh-payment-status', null)).status, 404);
  const d = await draft();
  assert.equal((await action(d.id, 'refresh-payment-status', null)).body.data.status, 'draft');
});
