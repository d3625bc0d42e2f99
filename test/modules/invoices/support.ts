import assert from 'node:assert/strict';
import type { TenantFixture, TestApp } from '../../helpers.ts';

/**
 * Records the invoice tests stand on. Taxes, sellers, products, prices and contracts belong to other
 * modules: they are inserted straight into the tables, so these tests do not depend on those routes.
 */
export function invoiceFixtures(t: TestApp) {
  const insert = async (table: string, values: Record<string, unknown>, tenant = t.tenant): Promise<number> => {
    const row = await t.db.db
      .insertInto(table as never)
      .values({ company_id: tenant.companyId, ...values } as never)
      .returning('id' as never)
      .executeTakeFirstOrThrow();
    return (row as { id: number }).id;
  };

  async function client(values: Record<string, unknown> = {}, tenant?: TenantFixture): Promise<number> {
    const res = await t.request('POST', '/clients', {
      body: { name: 'Acme Ltd', reg_code: '12345678', vat_code: 'EE123456789', ...values },
      tenant,
    });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id;
  }

  async function contact(clientId: number, values: Record<string, unknown> = {}, tenant?: TenantFixture) {
    const res = await t.request('POST', '/contacts', {
      body: { client_id: clientId, name: 'Jane', surname: 'Doe', email: 'jane@acme.example', ...values },
      tenant,
    });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id as number;
  }

  const tax = (name = 'VAT 22', rate = '0.22', tenant?: TenantFixture) => insert('taxes', { name, rate }, tenant);
  const seller = (values: Record<string, unknown> = {}, tenant?: TenantFixture) =>
    insert(
      'invoice_sellers',
      {
        name: 'Example Services OÜ',
        company_number: '87654321',
        vat_number: 'EE987654321',
        address: 'Main St 1, Tallinn',
        bank_1: 'Big Bank',
        iban_1: 'EE382200221020145685',
        ...values,
      },
      tenant,
    );
  const product = (values: Record<string, unknown> = {}, tenant?: TenantFixture) =>
    insert('products', { name: 'Consulting hour', unit: 'h', ...values }, tenant);
  const price = (productId: number, netPrice: string, activeFrom = '2000-01-01', currency: string | null = null) =>
    insert('product_prices', { product_id: productId, net_price: netPrice, active_from: activeFrom, currency });
  const contract = (clientId: number, settings: Record<string, unknown> = {}, tenant?: TenantFixture) =>
    insert(
      'contracts',
      { client_id: clientId, name: 'Support', status: 'active', settings: JSON.stringify(settings) },
      tenant,
    );

  async function billingSettings(values: Record<string, unknown>, tenant = t.tenant) {
    await t.db.db
      .insertInto('billing_settings')
      .values({ company_id: tenant.companyId, ...values } as never)
      .onConflict((oc) => oc.column('company_id').doUpdateSet(values as never))
      .execute();
  }

  async function invoice(body: Record<string, unknown>, tenant?: TenantFixture) {
    const res = await t.request('POST', '/invoices', { body, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  }

  /** Finalizes a draft (PATCH status=created with its current ETag). */
  async function finalize(id: number, tenant?: TenantFixture) {
    const current = await t.request('GET', `/invoices/${id}`, { tenant });
    const res = await t.request('PATCH', `/invoices/${id}`, {
      body: { status: 'created' },
      headers: { 'if-match': current.headers.get('etag')! },
      tenant,
    });
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  const etag = async (id: number) => (await t.request('GET', `/invoices/${id}`)).headers.get('etag')!;

  const stored = (id: number, tenant = t.tenant) =>
    t.db.db
      .selectFrom('invoices')
      .selectAll()
      .where('company_id', '=', tenant.companyId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  const storedRows = (invoiceId: number, tenant = t.tenant) =>
    t.db.db
      .selectFrom('invoice_rows')
      .selectAll()
      .where('company_id', '=', tenant.companyId)
      .where('invoice_id', '=', invoiceId)
      .orderBy('id')
      .execute();

  const events = (invoiceId: number, tenant = t.tenant) =>
    t.db.db
      .selectFrom('events')
      .select(['event', 'data'])
      .where('company_id', '=', tenant.companyId)
      .where('entity', '=', 'invoice')
      .where('record_id', '=', invoiceId)
      .orderBy('id')
      .execute();

  return {
    insert,
    client,
    contact,
    tax,
    seller,
    product,
    price,
    contract,
    billingSettings,
    invoice,
    finalize,
    etag,
    stored,
    storedRows,
    events,
  };
}
