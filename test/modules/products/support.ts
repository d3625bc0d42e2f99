import assert from 'node:assert/strict';
import type { TenantFixture, TestApp } from '../../helpers.ts';

/** Shared set-up for the product tests: records made through HTTP, rows that "use" a product made in SQL. */
export function productKit(t: TestApp) {
  async function tax(body: Record<string, unknown>, tenant: TenantFixture = t.tenant): Promise<number> {
    const res = await t.request('POST', '/taxes', { body, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id;
  }
  async function topic(name: string, tenant: TenantFixture = t.tenant): Promise<number> {
    const res = await t.request('POST', '/topics', { body: { name }, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id;
  }
  async function product(body: Record<string, unknown>, tenant: TenantFixture = t.tenant) {
    const res = await t.request('POST', '/products', { body, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  }
  async function price(productId: number, body: Record<string, unknown>, tenant: TenantFixture = t.tenant) {
    const res = await t.request('POST', `/products/${productId}/prices`, { body, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  }
  async function client(tenant: TenantFixture = t.tenant): Promise<number> {
    const row = await t.db.db
      .insertInto('clients')
      .values({ company_id: tenant.companyId, name: 'Billed client', status: 'active' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  /** A contract with one row billing the product; answers the contract id. */
  async function contractUsing(productId: number, tenant: TenantFixture = t.tenant): Promise<number> {
    const contract = await t.db.db
      .insertInto('contracts')
      .values({ company_id: tenant.companyId, name: 'Uses it', client_id: await client(tenant) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.db
      .insertInto('contract_rows')
      .values({ company_id: tenant.companyId, contract_id: contract.id, product_id: productId })
      .execute();
    return contract.id;
  }
  /** A draft invoice with one row billing the product. */
  async function invoiceUsing(productId: number, tenant: TenantFixture = t.tenant): Promise<void> {
    const invoice = await t.db.db
      .insertInto('invoices')
      .values({
        company_id: tenant.companyId,
        client_id: await client(tenant),
        invoice_date: '2026-01-01',
        due_date: '2026-01-15',
        currency: 'EUR',
        client_name: 'Billed client',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.db
      .insertInto('invoice_rows')
      .values({ company_id: tenant.companyId, invoice_id: invoice.id, product_id: productId })
      .execute();
  }
  return { tax, topic, product, price, client, contractUsing, invoiceUsing };
}
