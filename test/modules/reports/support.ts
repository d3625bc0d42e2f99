import assert from 'node:assert/strict';
import type { TenantFixture, TestApp } from '../../helpers.ts';

/**
 * The work and money the report tests stand on. Clients, topics, tasks and time entries go through the API (what a
 * caller would do); agreements, products, contracts, projects and invoices of exact sums straight into their tables,
 * so these tests do not depend on those modules' routes.
 */
export function reportKit(t: TestApp, tenant: TenantFixture = t.tenant) {
  async function post(path: string, body: Record<string, unknown>): Promise<number> {
    const res = await t.request('POST', path, { body, tenant });
    assert.equal(res.status, 201, `${path}: ${res.text}`);
    return res.body.data.id;
  }

  async function insert(table: string, values: Record<string, unknown>): Promise<number> {
    const row = await t.db.db
      .insertInto(table as never)
      .values({ company_id: tenant.companyId, ...values } as never)
      .returning('id' as never)
      .executeTakeFirstOrThrow();
    return (row as { id: number }).id;
  }

  const client = (name: string) => post('/clients', { name });
  const topic = (name: string, billable: boolean) => post('/topics', { name, billable });
  const task = (title: string, values: { client_id?: number; topic_id?: number; project_id?: number } = {}) =>
    post('/tasks', { title, ...values });

  /** A closed entry of `hours` from `start` (ISO with offset), billable unless told. */
  const entry = (taskId: number, personId: number, start: string, hours: number, billable = true) =>
    post('/time-entries', {
      task_id: taskId,
      person_id: personId,
      start,
      end: new Date(Date.parse(start) + Math.round(hours * 3_600_000)).toISOString(),
      billable,
    });

  const agreement = (personId: number, values: Record<string, unknown>) =>
    insert('agreements', { person_id: personId, ...values });

  const project = async (name: string) =>
    insert('projects', {
      name,
      project_type_id: (
        await t.db.db
          .selectFrom('project_types')
          .select('id')
          .where('company_id', '=', tenant.companyId)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    });

  /** An invoice with a given status, day and net sum (and one row carrying it, for person/product breakdowns). */
  async function invoice(
    clientId: number,
    status: string,
    invoiceDate: string,
    netSum: string,
    extra: { currency?: string; person_id?: number; product_id?: number } = {},
  ): Promise<number> {
    const id = await insert('invoices', {
      client_id: clientId,
      status,
      invoice_date: invoiceDate,
      due_date: invoiceDate,
      net_sum: netSum,
      total_sum: netSum,
      currency: extra.currency ?? 'EUR',
      client_name: 'Snapshot name',
    });
    await insert('invoice_rows', {
      invoice_id: id,
      quantity: '1',
      net_price: netSum,
      net_sum: netSum,
      person_id: extra.person_id ?? null,
      product_id: extra.product_id ?? null,
    });
    return id;
  }

  /** An active contract billing time by the hour at `price` (a product with bill_by hour), from `from`. */
  async function hourlyContract(clientId: number, price: string, from = '2024-01-01'): Promise<number> {
    const product = await insert('products', { name: 'Consulting hour', bill_by: 'hour', type: 'time' });
    const contract = await insert('contracts', {
      client_id: clientId,
      name: 'Support',
      status: 'active',
      date_from: from,
    });
    await insert('contract_rows', { contract_id: contract, product_id: product, net_price: price });
    return contract;
  }

  async function setBilling(on: boolean) {
    const res = await t.request('PATCH', '/company/billing-settings', { body: { billing_active: on }, tenant });
    assert.equal(res.status, 200, res.text);
  }

  async function kpi(query: string, key = 'admin') {
    const res = await t.request('GET', `/reports/kpi-summary?${query}`, { key, tenant });
    assert.equal(res.status, 200, res.text);
    return res;
  }

  return { post, insert, client, topic, task, entry, agreement, project, invoice, hourlyContract, setBilling, kpi };
}
