import assert from 'node:assert/strict';
import type { TestApp, TenantFixture } from '../../helpers.ts';

/** Records for the reclaim tests, straight in SQL (other modules' tables), and reads of what was stored. */
export function reclaimSupport(t: TestApp) {
  const insert = async (table: string, values: Record<string, unknown>): Promise<number> => {
    const row = await t.db.db
      .insertInto(table as never)
      .values(values as never)
      .returning('id' as never)
      .executeTakeFirstOrThrow();
    return (row as { id: number }).id;
  };

  const task = (values: Record<string, unknown> = {}, tenant: TenantFixture = t.tenant) =>
    insert('tasks', { company_id: tenant.companyId, title: 'Reclaim task', ...values });

  /** A closed entry of `seconds` on the task, starting on the given July day. */
  const entry = (taskId: number, seconds: number, day = 1, tenant: TenantFixture = t.tenant) => {
    const start = new Date(Date.UTC(2026, 6, day, 9));
    return insert('time_entries', {
      company_id: tenant.companyId,
      task_id: taskId,
      person_id: tenant.memberPersonId,
      start: start.toISOString(),
      end: new Date(start.getTime() + seconds * 1000).toISOString(),
      duration: seconds,
    });
  };

  /** An invoice of the given status billing these entries (as the billing engine links them). */
  async function bill(status: string, entryIds: number[], tenant: TenantFixture = t.tenant): Promise<number> {
    const client = await insert('clients', { company_id: tenant.companyId, name: 'Billed client' });
    const invoice = await insert('invoices', {
      company_id: tenant.companyId,
      client_id: client,
      status,
      invoice_date: '2026-07-31',
      due_date: '2026-08-14',
      currency: 'EUR',
      client_name: 'Billed client',
    });
    const row = await insert('invoice_rows', {
      company_id: tenant.companyId,
      invoice_id: invoice,
      description: 'Work',
    });
    for (const id of entryIds)
      await t.db.db
        .insertInto('invoice_row_entries')
        .values({ company_id: tenant.companyId, time_entry_id: id, invoice_row_id: row, invoice_id: invoice })
        .execute();
    return invoice;
  }

  const unbill = (invoiceId: number) =>
    t.db.db.deleteFrom('invoice_row_entries').where('invoice_id', '=', invoiceId).execute();

  async function taskOf(entryId: number): Promise<number> {
    const row = await t.db.db
      .selectFrom('time_entries')
      .select('task_id')
      .where('id', '=', entryId)
      .executeTakeFirstOrThrow();
    return row.task_id;
  }

  const tasksOf = (ids: number[]) => Promise.all(ids.map(taskOf));

  async function reclaim(sourceId: number, body: Record<string, unknown>, tenant: TenantFixture = t.tenant) {
    const res = await t.request('POST', `/tasks/${sourceId}/reclaim`, { body, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  }

  return { insert, task, entry, bill, unbill, taskOf, tasksOf, reclaim };
}
