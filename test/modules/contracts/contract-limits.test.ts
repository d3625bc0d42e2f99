import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type Response } from '../../helpers.ts';
import { contractKit } from './support.ts';

const t = await createTestApp();
const kit = contractKit(t);
const company = t.tenant.companyId;
/** The record's current version: these writes need a concrete If-Match (decision 0049), and each moves it on. */
const current = async (path: string) => ({ 'if-match': (await t.request('GET', path)).headers.get('etag')! });

/** Adds `n` plain rows to a contract in one statement (the caps are what is under test, not the row checks). */
const addRows = (contractId: number, n: number) =>
  sql`insert into contract_rows (company_id, contract_id, description, quantity, net_price)
      select ${company}, ${contractId}, 'Row ' || g, 1, 10 from generate_series(1, ${n}) g`.execute(t.db.db);

const count = async (table: string, where = sql`true`) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}
      where company_id = ${company} and ${where}`.execute(t.db.db)
  ).rows[0]!.n;

/** Clients straight in SQL: the apply cap is about 200 of them. */
async function clients(n: number, prefix: string): Promise<number[]> {
  const rows = await sql<{ id: number }>`insert into clients (company_id, name, status, timing_required, topic_required)
    select ${company}, ${prefix} || g, 'active', 0, 0 from generate_series(1, ${n}) g returning id`.execute(t.db.db);
  return rows.rows.map((r) => r.id);
}

function assertRefused(res: Response, reason: string): void {
  assert.equal(res.status, 400, res.text.slice(0, 400));
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  assert.equal(res.body.error.details.reason, reason);
}

test('a contract holds at most 500 rows: the 501st is 400 TOO_MANY_ROWS naming the limit', async () => {
  const contract = await kit.contract({ client_id: await kit.client('Full'), name: 'Full' });
  await addRows(contract.id, 499);
  const self = `/contracts/${contract.id}`;
  const last = await t.request('POST', `${self}/rows`, { body: { net_price: 1 }, headers: await current(self) });
  assert.equal(last.status, 201, last.text);
  const over = await t.request('POST', `${self}/rows`, { body: { net_price: 1 }, headers: await current(self) });
  assertRefused(over, 'TOO_MANY_ROWS');
  assert.equal(over.body.error.details.max_rows, 500);
  assert.deepEqual(over.body.error.details.contract_ids, [contract.id]);
  assert.match(over.body.error.message, /at most 500 rows/);
  assert.equal(await count('contract_rows', sql`contract_id = ${contract.id}`), 500);
  // A read still inlines 200 and says there are more.
  const read = await t.request('GET', `/contracts/${contract.id}`);
  assert.equal(read.body.data.rows.length, 200);
  assert.equal(read.body.data.rows_truncated, true);
});

test("a row's price list holds at most 50 prices: the 51st is 400 TOO_MANY_PRICES", async () => {
  const contract = await kit.contract({
    client_id: await kit.client('Priced'),
    name: 'Priced',
    rows: [{ net_price: 5 }],
  });
  const rowId = contract.rows[0].id;
  await sql`insert into contract_row_prices (company_id, contract_row_id, net_price, active_from)
    select ${company}, ${rowId}, g, date '2001-01-01' + g from generate_series(1, 49) g`.execute(t.db.db);
  const path = `/contracts/${contract.id}/rows/${rowId}/prices`;
  const row = `/contracts/${contract.id}/rows/${rowId}`;
  const body = (net_price: number, active_from: string) => ({ net_price, active_from });
  const last = await t.request('POST', path, { body: body(7, '2030-01-01'), headers: await current(row) });
  assert.equal(last.status, 201, last.text);
  const over = await t.request('POST', path, { body: body(8, '2031-01-01'), headers: await current(row) });
  assertRefused(over, 'TOO_MANY_PRICES');
  assert.equal(over.body.error.details.max_prices, 50);
  assert.match(over.body.error.message, /at most 50 prices/);
  assert.equal(await count('contract_row_prices', sql`contract_row_id = ${rowId}`), 50);
});

test('an apply copies at most 20,000 rows and row prices: over it is 400 APPLY_TOO_LARGE, dry run included', async () => {
  const tpl = await kit.contract({ name: 'Big template', type: 'template', rows: [{ net_price: 1 }] });
  await addRows(tpl.id, 100); // 101 rows × 200 clients = 20,200 copies
  const targets = await clients(200, 'Apply target ');
  const before = [await count('contracts'), await count('contract_rows')];
  for (const dry_run of [true, false]) {
    const res = await t.request('POST', `/contracts/${tpl.id}/apply`, {
      body: { mode: 'add', client_ids: targets, start_date: '2026-01-01', dry_run },
    });
    assertRefused(res, 'APPLY_TOO_LARGE');
    assert.deepEqual(
      [res.body.error.details.max_copies, res.body.error.details.copies, res.body.error.details.receivers],
      [20_000, 20_200, 200],
    );
    assert.equal(res.body.error.details.field, 'client_ids');
    assert.match(res.body.error.message, /at most 20000 rows and row prices/);
  }
  assert.deepEqual([await count('contracts'), await count('contract_rows')], before, 'nothing was written');
  const fewer = await t.request('POST', `/contracts/${tpl.id}/apply`, {
    body: { mode: 'add', client_ids: targets.slice(0, 10), start_date: '2026-01-01' },
  });
  assert.equal(fewer.status, 200, fewer.text.slice(0, 300));
  assert.equal((await count('contract_rows')) - before[1]!, 1010);
});

test('an append that would take a contract past 500 rows is 400 TOO_MANY_ROWS naming the contract', async () => {
  const tpl = await kit.contract({ name: 'Append template', type: 'template', rows: [{ net_price: 1 }] });
  await addRows(tpl.id, 50);
  const client = await kit.client('Nearly full');
  const full = await kit.contract({ client_id: client, name: 'Nearly full' });
  await addRows(full.id, 450);
  const res = await t.request('POST', `/contracts/${tpl.id}/apply`, { body: { mode: 'append', client_ids: [client] } });
  assertRefused(res, 'TOO_MANY_ROWS');
  assert.deepEqual(res.body.error.details.contract_ids, [full.id]);
  assert.equal(res.body.error.details.adding, 51);
  assert.equal(await count('contract_rows', sql`contract_id = ${full.id}`), 450);
});
