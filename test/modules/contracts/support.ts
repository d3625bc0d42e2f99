import assert from 'node:assert/strict';
import type { TestApp, TenantFixture } from '../../helpers.ts';

/** Test data for the contract tests. Clients go through the API; taxes and products (other modules) straight in SQL. */
export function contractKit(t: TestApp) {
  const insert = async (table: string, values: Record<string, unknown>, tenant?: TenantFixture): Promise<number> => {
    const row = await t.db.db
      .insertInto(table as never)
      .values({ company_id: (tenant ?? t.tenant).companyId, ...values } as never)
      .returning('id' as never)
      .executeTakeFirstOrThrow();
    return (row as { id: number }).id;
  };

  async function client(name = 'Client', tenant?: TenantFixture): Promise<number> {
    const res = await t.request('POST', '/clients', { body: { name }, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id;
  }

  const tax = (rate = '0.22', status = 'active', tenant?: TenantFixture) =>
    insert('taxes', { name: `VAT ${rate}`, rate, status }, tenant);

  async function product(
    values: { name?: string; status?: string; unit?: string | null; tax_id?: number | null; price?: string } = {},
    tenant?: TenantFixture,
  ): Promise<number> {
    const { price, ...rest } = values;
    const id = await insert('products', { name: 'Product', ...rest }, tenant);
    if (price !== undefined) await insert('product_prices', { product_id: id, net_price: price }, tenant);
    return id;
  }

  async function contract(body: Record<string, unknown>, tenant?: TenantFixture) {
    const res = await t.request('POST', '/contracts', { body, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  }

  async function etagOf(path: string): Promise<string> {
    const res = await t.request('GET', path);
    assert.equal(res.status, 200, res.text);
    return res.headers.get('etag')!;
  }

  const storedContracts = (companyId = t.tenant.companyId) =>
    t.db.db.selectFrom('contracts').selectAll().where('company_id', '=', companyId).orderBy('id').execute();

  const storedRows = (contractId: number) =>
    t.db.db
      .selectFrom('contract_rows')
      .selectAll()
      .where('company_id', '=', t.tenant.companyId)
      .where('contract_id', '=', contractId)
      .orderBy('id')
      .execute();

  return { insert, client, tax, product, contract, etagOf, storedContracts, storedRows };
}

/** The company's local day, as the service computes it (the test tenant is UTC). */
export const today = () => new Date().toISOString().slice(0, 10);
export const dayOffset = (days: number) => {
  const d = new Date(`${today()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
