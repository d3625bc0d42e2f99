import assert from 'node:assert/strict';
import type { TenantFixture, TestApp } from '../../helpers.ts';

/**
 * The records a billing run stands on. Contracts, rows, products and prices are inserted straight into their
 * tables (their routes have their own tests); tasks and time entries go through HTTP, as users write them.
 */
export function billingFixtures(t: TestApp, tenant: TenantFixture = t.tenant) {
  const insert = async (table: string, values: Record<string, unknown>): Promise<number> => {
    const row = await t.db.db
      .insertInto(table as never)
      .values({ company_id: tenant.companyId, ...values } as never)
      .returning('id' as never)
      .executeTakeFirstOrThrow();
    return (row as { id: number }).id;
  };

  async function client(name = 'Acme Ltd'): Promise<number> {
    const res = await t.request('POST', '/clients', { body: { name }, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id;
  }

  async function task(clientId: number, topicId: number | null = null, title = 'Bookkeeping'): Promise<number> {
    const res = await t.request('POST', '/tasks', { body: { title, client_id: clientId, topic_id: topicId }, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id;
  }

  /** Closed entries of the owner, written in one bulk call; answers their ids in order. */
  async function entries(
    taskId: number,
    spans: Array<[string, string] | { start: string; end: string; billable?: boolean }>,
  ): Promise<number[]> {
    const list = spans.map((s) => (Array.isArray(s) ? { start: s[0], end: s[1] } : s));
    const res = await t.request('POST', '/time-entries/bulk', {
      body: { entries: list.map((s) => ({ task_id: taskId, person_id: tenant.ownerPersonId, ...s })) },
      tenant,
    });
    assert.equal(res.status, 201, res.text);
    return res.body.data.map((e: { id: number }) => e.id);
  }

  const topic = (name: string, billable = 1) => insert('topics', { name, billable });
  const tax = (name: string, rate: string) => insert('taxes', { name, rate });
  const hourly = (name = 'Consulting', values: Record<string, unknown> = {}) =>
    insert('products', { name, unit: 'h', bill_by: 'hour', type: 'time', ...values });
  const price = (productId: number, netPrice: string, activeFrom = '2000-01-01') =>
    insert('product_prices', { product_id: productId, net_price: netPrice, active_from: activeFrom });
  const contract = (clientId: number, values: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) =>
    insert('contracts', {
      client_id: clientId,
      name: 'Support',
      status: 'active',
      settings: JSON.stringify(settings),
      ...values,
    });
  const row = (contractId: number, values: Record<string, unknown>) =>
    insert('contract_rows', { contract_id: contractId, ...values });

  async function bill(clientId: number, body: Record<string, unknown> = {}) {
    return t.request('POST', `/clients/${clientId}/invoices`, { body, tenant });
  }

  async function setBilling(active: boolean) {
    const res = await t.request('PATCH', '/company/billing-settings', { body: { billing_active: active }, tenant });
    assert.equal(res.status, 200, res.text);
  }

  const links = (invoiceId: number) =>
    t.db.db
      .selectFrom('invoice_row_entries')
      .select(['time_entry_id', 'invoice_row_id'])
      .where('company_id', '=', tenant.companyId)
      .where('invoice_id', '=', invoiceId)
      .orderBy('time_entry_id')
      .execute();

  /**
   * Billing on, a client under an hourly contract row at 90, two hours on 5 October 2026: the engine's smallest case,
   * and the engine run over October.
   */
  async function hourlyClient(name: string) {
    await setBilling(true);
    const id = await client(`${name} Ltd`);
    const product = await hourly(`${name} hours`);
    await price(product, '90');
    await row(await contract(id), { product_id: product });
    await entries(await task(id, null, `${name} task`), [['2026-10-05T08:00:00Z', '2026-10-05T10:00:00Z']]);
    return { client: id, billOctober: () => bill(id, { date_from: '2026-10-01', date_to: '2026-10-31' }) };
  }

  return {
    insert,
    client,
    task,
    entries,
    topic,
    tax,
    hourly,
    price,
    contract,
    row,
    bill,
    setBilling,
    links,
    hourlyClient,
  };
}
