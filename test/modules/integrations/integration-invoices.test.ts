import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

async function client(name: string, tenant: TenantFixture = t.tenant) {
  const row = await t.db.db
    .insertInto('clients')
    .values({ company_id: tenant.companyId, name })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function invoice(clientId: number, values: Record<string, unknown>, tenant: TenantFixture = t.tenant) {
  const row = await t.db.db
    .insertInto('invoices')
    .values({
      company_id: tenant.companyId,
      client_id: clientId,
      invoice_date: '2026-05-10',
      due_date: '2026-05-24',
      currency: 'EUR',
      client_name: 'Client',
      ...values,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const list = async (query = '', tenant: TenantFixture = t.tenant) => {
  const res = await t.request('GET', `/integrations/invoices?limit=200&${query}`, { tenant });
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const idsOf = (body: { data: Array<{ id: number }> }) => body.data.map((x) => x.id);

const acme = await client('Acme');
const globex = await client('Globex');
const created = await invoice(acme, {
  status: 'created',
  invoice_number: 'INV-1',
  net_sum: '100.50',
  tax_sum: '22.11',
  total_sum: '122.61',
  reference_number: '123',
  sent_at: null,
});
const sent = await invoice(globex, { status: 'sent', invoice_date: '2026-06-01', sent_at: '2026-06-01T10:00:00Z' });
const paid = await invoice(acme, {
  status: 'paid',
  invoice_date: '2026-07-01',
  paid_sum: '50',
  paid_at: '2026-07-02T00:00:00Z',
});
const draft = await invoice(acme, { status: 'draft' });
const annulled = await invoice(acme, { status: 'annulled' });
const exported = await invoice(acme, { status: 'sent', exported_at: '2026-06-02T00:00:00Z' });
const theirs = await invoice(await client('Theirs', other), { status: 'created' }, other);
for (let i = 0; i < 3; i++)
  await t.db.db
    .insertInto('invoice_rows')
    .values({ company_id: t.tenant.companyId, invoice_id: created, description: `Row ${i}` })
    .execute();

test('lists only finalized invoices (created, sent, paid) not exported yet, as header records', async () => {
  const body = await list();
  assert.deepEqual(idsOf(body), [created, sent, paid]);
  assert.deepEqual(body.meta, { total: 3, limit: 200, offset: 0, has_more: false });
  for (const id of [draft, annulled, exported, theirs]) assert.ok(!idsOf(body).includes(id));
  const first = body.data[0];
  assert.deepEqual(
    { ...first, created_at: '', updated_at: '' },
    {
      id: created,
      invoice_number: 'INV-1',
      status: 'created',
      client_id: acme,
      contract_id: null,
      seller_id: null,
      client_name: 'Client',
      client_reg_code: null,
      client_vat_code: null,
      invoice_date: '2026-05-10',
      due_date: '2026-05-24T00:00:00.000Z',
      currency: 'EUR',
      net_sum: 100.5,
      tax_sum: 22.11,
      total_sum: 122.61,
      paid_sum: 0,
      reference_number: '123',
      row_count: 3,
      exported_at: null,
      sent_at: null,
      paid_at: null,
      created_at: '',
      updated_at: '',
    },
  );
  assert.equal(body.data[1].sent_at, '2026-06-01T10:00:00.000Z');
  assert.equal(body.data[2].paid_sum, 50);
  assert.equal((await list('', other)).data.length, 1);
});

test('an invoice leaves the list once it is exported', async () => {
  const extra = await invoice(globex, { status: 'paid' });
  assert.ok(idsOf(await list()).includes(extra));
  await t.db.db
    .updateTable('invoices')
    .set({ exported_at: new Date().toISOString() })
    .where('id', '=', extra)
    .execute();
  assert.ok(!idsOf(await list()).includes(extra));
});

test('filters: status, client_id, invoice date range; sort; paging', async () => {
  assert.deepEqual(idsOf(await list('status=sent,paid')), [sent, paid]);
  assert.deepEqual(idsOf(await list(`client_id=${acme}`)), [created, paid]);
  assert.deepEqual(idsOf(await list('invoice_date_from=2026-06-01&invoice_date_to=2026-06-30')), [sent]);
  assert.deepEqual(idsOf(await list('sort=-invoice_date')), [paid, sent, created]);
  assert.deepEqual(idsOf(await list(`client_id=${await client('Nobody')}`)), []);
  const page = await t.request('GET', '/integrations/invoices?limit=1&offset=1');
  assert.deepEqual(idsOf(page.body), [sent]);
  assert.equal(page.body.meta.has_more, true);
  const theirClient = await client('Theirs 2', other);
  assert.deepEqual(idsOf(await list(`client_id=${theirClient}`)), []);
});

test('bad filters are 422, unknown ones and cursors 400', async () => {
  for (const query of [
    'status=draft',
    'status=paid,annulled',
    'client_id=x',
    'invoice_date_from=2026-02-30',
    'client_id=%00',
  ]) {
    const res = await t.request('GET', `/integrations/invoices?${query}`);
    assert.equal(res.status, 422, query);
    assert.equal(res.body.error.code, 'INVALID_FILTER_VALUE');
  }
  for (const query of ['cursor=abc', 'q=x', 'sort=total_sum', 'limit=0']) {
    const res = await t.request('GET', `/integrations/invoices?${query}`);
    assert.equal(res.status, 400, query);
  }
});
