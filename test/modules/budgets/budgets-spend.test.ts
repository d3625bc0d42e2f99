import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

/** spent_net_sum and warning, worked out by hand from invoices written straight into the database. */
const t = await createTestApp();
const company = t.tenant.companyId;

async function insert(table: string, values: Record<string, unknown>): Promise<number> {
  const row = await t.db.db
    .insertInto(table as never)
    .values({ company_id: company, ...values } as never)
    .returning('id' as never)
    .executeTakeFirstOrThrow();
  return (row as { id: number }).id;
}

const currency = (
  await t.db.db.selectFrom('companies').select('currency').where('id', '=', company).executeTakeFirstOrThrow()
).currency;

function invoice(clientId: number, status: string, date: string, net: string, cur = currency) {
  return insert('invoices', {
    client_id: clientId,
    status,
    invoice_date: date,
    due_date: date,
    net_sum: net,
    total_sum: net,
    currency: cur,
    client_name: 'C',
  });
}

async function spent(body: Record<string, unknown>) {
  const res = await t.request('POST', '/budgets', { body: { name: 'B', ...body } });
  assert.equal(res.status, 201, res.text);
  const read = await t.request('GET', `/budgets/${res.body.data.id}`);
  assert.deepEqual(read.body.data, res.body.data);
  return res.body.data as { id: number; spent_net_sum: number; warning: boolean; updated_at: string };
}

test('a client budget counts finalized invoices of the client, in the company currency, within its dates', async () => {
  const client = await insert('clients', { name: 'Spender' });
  const elsewhere = await insert('clients', { name: 'Elsewhere' });
  await invoice(client, 'created', '2026-03-01', '100.10');
  await invoice(client, 'sent', '2026-03-31', '200.20');
  await invoice(client, 'paid', '2026-03-15', '0.03');
  await invoice(client, 'draft', '2026-03-10', '1000.00');
  await invoice(client, 'annulled', '2026-03-10', '1000.00');
  await invoice(client, 'paid', '2026-02-28', '1000.00');
  await invoice(client, 'paid', '2026-04-01', '1000.00');
  await invoice(client, 'paid', '2026-03-10', '1000.00', currency === 'USD' ? 'EUR' : 'USD');
  await invoice(elsewhere, 'paid', '2026-03-10', '1000.00');
  const march = { client_id: client, date_from: '2026-03-01', date_until: '2026-03-31' };
  // 100.10 + 200.20 + 0.03 = 300.33 exactly (binary floats would give 300.33000000000004).
  const b = await spent({ ...march, budget_net_sum: 1000 });
  assert.equal(b.spent_net_sum, 300.33);
  assert.equal(b.warning, false);
  const open = await spent({ client_id: client, budget_net_sum: 1000 });
  assert.equal(open.spent_net_sum, 2300.33);
  assert.equal(open.warning, true);
  const whole = await spent({ date_from: '2026-03-01', date_until: '2026-03-31', budget_net_sum: 1 });
  assert.equal(whole.spent_net_sum, 1300.33, 'a budget without client or project counts the whole company');
});

test('warning turns true exactly when spent reaches budget × warning_rate (decimal comparison)', async () => {
  const client = await insert('clients', { name: 'Threshold' });
  await invoice(client, 'created', '2026-05-01', '70.00');
  await invoice(client, 'created', '2026-05-02', '0.10');
  await invoice(client, 'created', '2026-05-03', '0.20');
  // 70.30 spent: budget 100 × 0.703 = 70.3 is reached; × 0.7031 is not.
  assert.equal((await spent({ client_id: client, budget_net_sum: 100, warning_rate: 0.703 })).warning, true);
  assert.equal((await spent({ client_id: client, budget_net_sum: 100, warning_rate: 0.7031 })).warning, false);
  // 0.30 spent against 3.00 × 0.1: binary floats make the threshold 0.30000000000000004 and miss it.
  const small = await insert('clients', { name: 'Small' });
  await invoice(small, 'created', '2026-05-01', '0.30');
  const exact = await spent({ client_id: small, budget_net_sum: 3, warning_rate: 0.1 });
  assert.equal(exact.spent_net_sum, 0.3);
  assert.equal(exact.warning, true);
});

test('a project budget counts only invoice rows that bill time entries of the project, each row once', async () => {
  const client = await insert('clients', { name: 'Project client' });
  const type = await t.db.db
    .selectFrom('project_types')
    .select('id')
    .where('company_id', '=', company)
    .executeTakeFirstOrThrow();
  const project = await insert('projects', { name: 'Build', project_type_id: type.id, client_id: client });
  const otherProject = await insert('projects', { name: 'Other', project_type_id: type.id, client_id: client });
  const task = await insert('tasks', { title: 'Work', project_id: project, client_id: client });
  const otherTask = await insert('tasks', { title: 'Else', project_id: otherProject, client_id: client });
  const entry = (taskId: number, hour: number) =>
    insert('time_entries', {
      task_id: taskId,
      person_id: t.tenant.memberPersonId,
      start: `2026-06-01T${String(hour).padStart(2, '0')}:00:00Z`,
      end: `2026-06-01T${String(hour).padStart(2, '0')}:30:00Z`,
      duration: 1800,
    });
  const inv = await invoice(client, 'sent', '2026-06-30', '999.00');
  const draft = await invoice(client, 'draft', '2026-06-30', '999.00');
  const row = (invoiceId: number, net: string) =>
    insert('invoice_rows', { invoice_id: invoiceId, description: 'r', net_price: net, net_sum: net });
  const link = async (invoiceId: number, rowId: number, entryId: number) =>
    t.db.db
      .insertInto('invoice_row_entries')
      .values({ company_id: company, invoice_id: invoiceId, invoice_row_id: rowId, time_entry_id: entryId })
      .execute();
  const billed = await row(inv, '150.50');
  await link(inv, billed, await entry(task, 8));
  await link(inv, billed, await entry(task, 9));
  const elsewhere = await row(inv, '300.00');
  await link(inv, elsewhere, await entry(otherTask, 10));
  await row(inv, '500.00');
  const drafted = await row(draft, '70.00');
  await link(draft, drafted, await entry(task, 11));

  const b = await spent({ project_id: project, budget_net_sum: 200 });
  assert.equal(b.spent_net_sum, 150.5);
  assert.equal(b.warning, false);
  const anyClient = await spent({ project_id: project, client_id: null, budget_net_sum: 150.5, warning_rate: 1 });
  assert.equal(anyClient.spent_net_sum, 150.5);
  assert.equal(anyClient.warning, true);
  const july = await spent({ project_id: project, budget_net_sum: 1, date_from: '2026-07-01' });
  assert.equal(july.spent_net_sum, 0);

  // The spend is derived on every read: a new finalized invoice shows without a write to the budget.
  const later = await invoice(client, 'paid', '2026-06-30', '10.00');
  await link(later, await row(later, '10.00'), await entry(task, 12));
  const reread = await t.request('GET', `/budgets/${b.id}`);
  assert.equal(reread.body.data.spent_net_sum, 160.5);
  assert.equal(reread.body.data.updated_at, b.updated_at);
  const listed = await t.request('GET', `/budgets?project_id=${project}&limit=200`);
  assert.ok(
    listed.body.data.some((x: { id: number; spent_net_sum: number }) => x.id === b.id && x.spent_net_sum === 160.5),
  );
});
