import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { contractKit, dayOffset } from './support.ts';

const t = await createTestApp();
const kit = contractKit(t);
const other = await t.newTenant({ name: 'Other Co' });
const foreignClient = await kit.client('Foreign', other);
const vat = await kit.tax('0.22');

/** A template with two rows, the first carrying two prices of its own. */
async function template(name: string) {
  const tpl = await kit.contract({
    name,
    type: 'template',
    invoice_period: 'quarter',
    invoice_day: 5,
    settings: { currency: 'EUR', invoice_recipients: ['t@x.example'] },
    rows: [
      { description: 'Base fee', net_price: 100, tax_id: vat },
      { description: 'Hours', quantity: 10, net_price: 60.5, invoice_time_min: 600 },
    ],
  });
  const rowPrices = `/contracts/${tpl.id}/rows/${tpl.rows[0].id}/prices`;
  for (const [net_price, active_from] of [
    [90, '2000-01-01'],
    [110, '2027-01-01'],
  ] as const) {
    const headers = { 'if-match': await kit.etagOf(`/contracts/${tpl.id}/rows/${tpl.rows[0].id}`) };
    const res = await t.request('POST', rowPrices, { body: { net_price, active_from }, headers });
    assert.equal(res.status, 201, res.text);
  }
  return tpl;
}

const apply = (id: number, body: unknown) => t.request('POST', `/contracts/${id}/apply`, { body });
const read = async (id: number) => (await t.request('GET', `/contracts/${id}`)).body.data;
const rowShape = (rows: Array<Record<string, unknown>>) =>
  rows.map((r) => [
    r.description,
    r.quantity,
    r.net_price,
    r.tax_id,
    r.invoice_time_min,
    (r.prices as Array<{ net_price: number; active_from: string }>).map((p) => [p.net_price, p.active_from]),
  ]);

test('add: one new contract per client, rows and row prices copied, linked to the template', async () => {
  const tpl = await template('Silver');
  const [a, b] = [await kit.client('Add A'), await kit.client('Add B')];
  const res = await apply(tpl.id, { mode: 'add', client_ids: [a, b, foreignClient], start_date: '2026-02-01' });
  assert.equal(res.status, 200, res.text);
  const out = res.body.data;
  assert.equal(out.dry_run, false);
  assert.deepEqual(out.summary, { created: 2, redated: 0, appended: 0, ended: 0, skipped: 0, errors: 1 });
  assert.deepEqual(
    out.results.map((r: { client_id: number; action: string }) => [r.client_id, r.action]),
    [
      [a, 'created'],
      [b, 'created'],
      [foreignClient, 'error'],
    ],
  );
  assert.equal(out.results[2].error.code, 'INVALID_CLIENT');
  assert.equal(out.results[2].contract_id, null);
  const stored = await read(tpl.id);
  for (const result of out.results.slice(0, 2)) {
    const c = await read(result.contract_id);
    assert.equal(c.client_id, result.client_id);
    assert.equal(c.type, 'contract');
    assert.equal(c.status, 'active');
    assert.equal(c.parent_id, tpl.id);
    assert.equal(c.template_name, 'Silver');
    assert.equal(c.name, 'Silver');
    assert.equal(c.date_from, '2026-02-01');
    assert.equal(c.invoice_period, 'quarter');
    assert.equal(c.invoice_day, 5);
    assert.deepEqual(c.settings, stored.settings);
    assert.deepEqual(rowShape(c.rows), rowShape(stored.rows));
    assert.ok(c.rows.every((r: { id: number }) => !stored.rows.some((x: { id: number }) => x.id === r.id)));
  }
  assert.equal((await kit.storedRows(tpl.id)).length, 2, 'the template keeps its rows');
});

test('dry_run answers the same plan and writes nothing', async () => {
  const tpl = await template('Dry');
  const a = await kit.client('Dry A');
  const existing = await kit.contract({ name: 'Old', client_id: a, date_from: '2025-01-01' });
  const before = await kit.storedContracts();
  const body = { mode: 'replace', client_ids: [a, 2147483000], start_date: '2026-06-01', dry_run: true };
  const res = await apply(tpl.id, body);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.dry_run, true);
  assert.deepEqual(res.body.data.results, [
    { client_id: a, action: 'created', contract_id: null, ended_contract_ids: [existing.id] },
    {
      client_id: 2147483000,
      action: 'error',
      contract_id: null,
      error: { code: 'INVALID_CLIENT', message: res.body.data.results[1].error.message },
    },
  ]);
  assert.deepEqual(await kit.storedContracts(), before);
  const appendDry = await apply(tpl.id, { mode: 'append', client_ids: [a], dry_run: true });
  assert.equal(appendDry.body.data.results[0].action, 'appended');
  assert.equal((await kit.storedRows(existing.id)).length, 0);
  const real = await apply(tpl.id, { ...body, dry_run: false });
  assert.deepEqual(
    real.body.data.results.map((r: { action: string }) => r.action),
    res.body.data.results.map((r: { action: string }) => r.action),
  );
});

test('dry_run=true in the query string (as the spec writes it) answers the plan and writes nothing', async () => {
  const tpl = await template('Query dry');
  const a = await kit.client('Query dry A');
  const existing = await kit.contract({ name: 'Old', client_id: a, date_from: '2025-01-01' });
  const before = await kit.storedContracts();
  const body = { mode: 'replace', client_ids: [a], start_date: '2026-06-01' };
  for (const [query, sent] of [
    ['?dry_run=true', body],
    ['?dry_run=true', { ...body, dry_run: false }],
    ['?dry_run=false', { ...body, dry_run: true }],
  ] as const) {
    const res = await t.request('POST', `/contracts/${tpl.id}/apply${query}`, { body: sent });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.dry_run, true, `${query} ${JSON.stringify(sent)}`);
    assert.deepEqual(res.body.data.results, [
      { client_id: a, action: 'created', contract_id: null, ended_contract_ids: [existing.id] },
    ]);
    assert.deepEqual(await kit.storedContracts(), before, 'nothing written');
  }
  const unknown = await t.request('POST', `/contracts/${tpl.id}/apply?dryrun=true`, { body });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  assert.equal(unknown.body.error.details.field, 'dryrun');
  const notBoolean = await t.request('POST', `/contracts/${tpl.id}/apply?dry_run=yes`, { body });
  assert.equal(notBoolean.status, 400);
  assert.equal(notBoolean.body.error.code, 'VALIDATION_ERROR');
  assert.deepEqual(await kit.storedContracts(), before, 'refusals write nothing either');
  const real = await t.request('POST', `/contracts/${tpl.id}/apply?dry_run=false`, { body });
  assert.equal(real.status, 200, real.text);
  assert.equal(real.body.data.dry_run, false);
  assert.equal((await kit.storedContracts()).length, before.length + 1);
});

test('replace: live contracts end the day before start_date; one on the template is re-dated; none → created', async () => {
  const tpl = await template('Gold');
  const [a, b, c] = [await kit.client('Rep A'), await kit.client('Rep B'), await kit.client('Rep C')];
  const aOld = await kit.contract({ name: 'A old', client_id: a, date_from: '2025-01-01' });
  const aPending = await kit.contract({ name: 'A held', client_id: a, status: 'pending', date_from: '2025-06-01' });
  const aEndedBefore = await kit.contract({
    name: 'A ended',
    client_id: a,
    date_from: '2024-01-01',
    date_until: '2024-12-31',
  });
  const aLater = await kit.contract({ name: 'A later', client_id: a, date_from: dayOffset(400) });
  const bOnTpl = await kit.contract({ name: 'B gold', client_id: b, parent_id: tpl.id, date_from: '2025-03-01' });
  const bOther = await kit.contract({ name: 'B other', client_id: b, date_from: '2025-01-01' });
  const future = dayOffset(30);
  const res = await apply(tpl.id, { mode: 'replace', client_ids: [a, b, c], start_date: future });
  assert.equal(res.status, 200, res.text);
  const [ra, rb, rc] = res.body.data.results;
  assert.equal(ra.action, 'created');
  assert.deepEqual(ra.ended_contract_ids, [aOld.id, aPending.id, aLater.id]);
  assert.equal(rb.action, 'redated');
  assert.equal(rb.contract_id, bOnTpl.id);
  assert.deepEqual(rb.ended_contract_ids, [bOther.id]);
  assert.equal(rc.action, 'created');
  assert.deepEqual(rc.ended_contract_ids, []);
  assert.equal(res.body.data.summary.ended, 4);
  const dayBefore = dayOffset(29);
  const old = await read(aOld.id);
  assert.equal(old.date_until, dayBefore);
  assert.equal(old.status, 'active', 'still runs until its last day');
  assert.equal((await read(aPending.id)).date_until, dayBefore);
  assert.equal((await read(aPending.id)).status, 'pending');
  const later = await read(aLater.id);
  assert.equal(later.status, 'finished', 'would only start after the replacement: never runs');
  assert.equal(later.date_from, dayOffset(400));
  assert.equal((await read(aEndedBefore.id)).date_until, '2024-12-31');
  const redated = await read(bOnTpl.id);
  assert.equal(redated.date_from, future);
  assert.equal(redated.rows.length, 0, 're-dating copies nothing');
  const made = await read(ra.contract_id);
  assert.equal(made.date_from, future);
  assert.equal(made.parent_id, tpl.id);
  assert.equal(made.rows.length, 2);
});

test('replace with a start_date of tomorrow or earlier finishes the ended contracts at once', async () => {
  const tpl = await template('Now');
  const a = await kit.client('Now A');
  const old = await kit.contract({ name: 'Old', client_id: a, date_from: '2025-01-01' });
  const res = await apply(tpl.id, { mode: 'replace', client_ids: [a], start_date: dayOffset(1) });
  assert.equal(res.status, 200, res.text);
  const ended = await read(old.id);
  assert.equal(ended.date_until, dayOffset(0));
  assert.equal(ended.status, 'finished');
});

test("append: the template's rows are added to every live contract and the package link is cleared", async () => {
  const tpl = await template('Addon');
  const [a, b] = [await kit.client('App A'), await kit.client('App B')];
  const linked = await kit.contract({
    name: 'A main',
    client_id: a,
    parent_id: tpl.id,
    rows: [{ description: 'own', net_price: 1 }],
  });
  const second = await kit.contract({ name: 'A second', client_id: a, status: 'pending' });
  const finished = await kit.contract({ name: 'A done', client_id: a, date_until: dayOffset(-1) });
  const res = await apply(tpl.id, { mode: 'append', client_ids: [a, b] });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.results, [
    { client_id: a, action: 'appended', contract_id: linked.id, contract_ids: [linked.id, second.id] },
    { client_id: b, action: 'skipped', contract_id: null, contract_ids: [] },
  ]);
  const main = await read(linked.id);
  assert.equal(main.parent_id, null);
  assert.equal(main.template_name, 'Addon');
  assert.deepEqual(
    main.rows.map((r: { description: string }) => r.description),
    ['own', 'Base fee', 'Hours'],
  );
  assert.equal(main.rows[1].prices.length, 2);
  assert.notEqual(main.updated_at, linked.updated_at);
  assert.equal((await read(second.id)).rows.length, 2);
  assert.equal((await read(finished.id)).rows.length, 0);
});

test('apply refusals: not a template, start_date missing, 201 clients, bad mode; nothing written', async () => {
  const tpl = await template('Refuse');
  const plain = await kit.contract({ name: 'Plain', client_id: await kit.client('P') });
  const before = (await kit.storedContracts()).length;
  const notTpl = await apply(plain.id, { mode: 'add', client_ids: [plain.client_id], start_date: '2026-01-01' });
  assert.equal(notTpl.status, 400);
  assert.equal(notTpl.body.error.details.reason, 'NOT_A_TEMPLATE');
  const noStart = await apply(tpl.id, { mode: 'replace', client_ids: [plain.client_id] });
  assert.equal(noStart.body.error.details.reason, 'START_DATE_REQUIRED');
  const many = await apply(tpl.id, {
    mode: 'add',
    client_ids: Array.from({ length: 201 }, (_, i) => i + 1),
    start_date: '2026-01-01',
  });
  assert.equal(many.status, 400);
  for (const body of [
    { mode: 'merge', client_ids: [1], start_date: '2026-01-01' },
    { mode: 'add', client_ids: [], start_date: '2026-01-01' },
    { mode: 'add', client_ids: [1, 1], start_date: '2026-01-01' },
  ])
    assert.equal((await apply(tpl.id, body)).status, 400, JSON.stringify(body));
  assert.equal((await apply(2147483000, { mode: 'add', client_ids: [1] })).status, 404);
  assert.equal((await kit.storedContracts()).length, before);
});

test('add to 200 clients in one call: 200 contracts with 400 rows and 400 row prices, in one transaction', async () => {
  const tpl = await template('Bulk');
  const clients: number[] = [];
  for (let i = 0; i < 200; i++) clients.push(await kit.client(`Bulk ${i}`));
  const res = await apply(tpl.id, { mode: 'add', client_ids: clients, start_date: '2026-01-01' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.summary.created, 200);
  const ids = res.body.data.results.map((r: { contract_id: number }) => r.contract_id);
  assert.equal(new Set(ids).size, 200);
  const rows = await t.db.db
    .selectFrom('contract_rows')
    .select(['id', 'contract_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('contract_id', 'in', ids)
    .execute();
  assert.equal(rows.length, 400);
  const prices = await t.db.db
    .selectFrom('contract_row_prices')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where(
      'contract_row_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  assert.equal(prices.length, 400);
});
