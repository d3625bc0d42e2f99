import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { loadModules } from '../../../src/modules/index.ts';
import { contractKit, dayOffset, today } from './support.ts';

const t = await createTestApp();
const kit = contractKit(t);
const other = await t.newTenant({ name: 'Other Co' });
const clientA = await kit.client('Alpha');
const clientB = await kit.client('Beta');
const otherClient = await kit.client('Foreign', other);

const DEFAULT_SETTINGS = {
  ext_user_id: null,
  currency: null,
  description: null,
  invoice_due_date_period: null,
  invoice_number_format: null,
  invoice_recipients: [],
  invoice_time_rounding: 0,
  is_description: false,
  is_reverse_charge: false,
  is_summarized: false,
  locale_code: null,
  reference_number: null,
  reply_to: null,
  summarized_description: null,
};

test('POST /contracts with a name and client fills every default', async () => {
  const res = await t.request('POST', '/contracts', { body: { name: 'Support', client_id: clientA } });
  assert.equal(res.status, 201, res.text);
  const c = res.body.data;
  assert.deepEqual(Object.keys(c).sort(), [
    'client_id',
    'created_at',
    'date_from',
    'date_until',
    'id',
    'invoice_day',
    'invoice_period',
    'name',
    'parent_id',
    'rows',
    'rows_truncated',
    'settings',
    'status',
    'template_name',
    'type',
    'updated_at',
  ]);
  assert.equal(c.client_id, clientA);
  assert.equal(c.name, 'Support');
  assert.equal(c.status, 'active');
  assert.equal(c.type, 'contract');
  assert.equal(c.parent_id, null);
  assert.equal(c.template_name, null);
  assert.equal(c.date_from, null);
  assert.equal(c.date_until, null);
  assert.equal(c.invoice_period, 'month');
  assert.equal(c.invoice_day, 1);
  assert.deepEqual(c.settings, DEFAULT_SETTINGS);
  assert.deepEqual(c.rows, []);
  assert.equal(c.rows_truncated, false);
  assert.match(c.created_at, /Z$/);
  assert.equal(res.headers.get('etag'), `"${c.updated_at}"`);
  const [stored] = (await kit.storedContracts()).filter((r) => r.id === c.id);
  assert.equal(stored!.status, 'active');
  assert.deepEqual(stored!.settings, DEFAULT_SETTINGS);
});

test('every field and setting is stored and answered as sent', async () => {
  const settings = {
    ext_user_id: 'u-7',
    currency: 'USD',
    description: 'Monthly support',
    invoice_due_date_period: 30,
    invoice_number_format: 'SUP-{yyyy}-{seq:4}',
    invoice_recipients: ['a@x.example', 'b@x.example'],
    invoice_time_rounding: 15,
    is_description: true,
    is_reverse_charge: true,
    is_summarized: true,
    locale_code: 'et',
    reference_number: 'RF18',
    reply_to: 'billing@x.example',
    summarized_description: 'Services',
  };
  const c = await kit.contract({
    name: 'Full',
    client_id: clientA,
    status: 'pending',
    date_from: '2026-01-01',
    date_until: '2099-12-31',
    invoice_period: 'quarter',
    invoice_day: 31,
    settings,
  });
  assert.equal(c.status, 'pending');
  assert.equal(c.date_from, '2026-01-01');
  assert.equal(c.date_until, '2099-12-31');
  assert.equal(c.invoice_period, 'quarter');
  assert.equal(c.invoice_day, 31);
  assert.deepEqual(c.settings, settings);
  const got = await t.request('GET', `/contracts/${c.id}`);
  assert.deepEqual(got.body.data, c);
});

test('a template needs no client; a contract does (400), and another company client is INVALID_CLIENT', async () => {
  const tpl = await kit.contract({ name: 'Package', type: 'template' });
  assert.equal(tpl.type, 'template');
  assert.equal(tpl.client_id, null);
  const missing = await t.request('POST', '/contracts', { body: { name: 'No client' } });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error.code, 'VALIDATION_ERROR');
  assert.equal(missing.body.error.details.reason, 'CLIENT_REQUIRED');
  const foreign = await t.request('POST', '/contracts', { body: { name: 'X', client_id: otherClient } });
  assert.equal(foreign.status, 400);
  assert.equal(foreign.body.error.code, 'INVALID_CLIENT');
});

test('parent_id must be a template of this company (INVALID_CONTRACT); template_name is copied', async () => {
  const tpl = await kit.contract({ name: 'Gold package', type: 'template' });
  const child = await kit.contract({ name: 'Gold for Alpha', client_id: clientA, parent_id: tpl.id });
  assert.equal(child.parent_id, tpl.id);
  assert.equal(child.template_name, 'Gold package');
  const plain = await kit.contract({ name: 'Plain', client_id: clientA });
  for (const parent of [plain.id, 2147483000]) {
    const res = await t.request('POST', '/contracts', { body: { name: 'X', client_id: clientA, parent_id: parent } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'INVALID_CONTRACT');
  }
  const otherTpl = await kit.contract({ name: 'Theirs', type: 'template' }, other);
  const res = await t.request('POST', '/contracts', {
    body: { name: 'X', client_id: clientA, parent_id: otherTpl.id },
  });
  assert.equal(res.body.error.code, 'INVALID_CONTRACT');
});

test('settings are checked: ISO 4217 currency, number format, recipients (≤ 20 e-mails), unknown keys', async () => {
  const bad = [
    [{ currency: 'XYZ' }, 'INVALID_CURRENCY'],
    [{ currency: 'eur' }, undefined],
    [{ invoice_number_format: 'INV-no-seq' }, 'INVALID_NUMBER_FORMAT'],
    [{ invoice_recipients: ['not-an-email'] }, undefined],
    [{ invoice_recipients: Array.from({ length: 21 }, (_, i) => `r${i}@x.example`) }, undefined],
    [{ invoice_time_rounding: -1 }, undefined],
    [{ surprise: 1 }, undefined],
  ] as const;
  for (const [settings, reason] of bad) {
    const res = await t.request('POST', '/contracts', { body: { name: 'S', client_id: clientA, settings } });
    assert.equal(res.status, 400, JSON.stringify(settings));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    if (reason) assert.equal(res.body.error.details.reason, reason);
  }
  const twenty = Array.from({ length: 20 }, (_, i) => `r${i}@x.example`);
  const ok = await kit.contract({ name: 'S', client_id: clientA, settings: { invoice_recipients: twenty } });
  assert.equal(ok.settings.invoice_recipients.length, 20);
});

test('date rules: date_until before date_from is 400; a past date_until on create finishes it', async () => {
  const range = await t.request('POST', '/contracts', {
    body: { name: 'R', client_id: clientA, date_from: '2026-05-01', date_until: '2026-04-30' },
  });
  assert.equal(range.status, 400);
  assert.equal(range.body.error.details.reason, 'INVALID_DATE_RANGE');
  const ended = await kit.contract({ name: 'Old', client_id: clientA, date_from: '2020-01-01', date_until: today() });
  assert.equal(ended.status, 'finished');
  const future = await kit.contract({ name: 'Later', client_id: clientA, date_from: dayOffset(30) });
  assert.equal(future.status, 'active');
  for (const body of [
    { invoice_day: 0 },
    { invoice_day: 32 },
    { invoice_period: 'week' },
    { date_from: '2026-02-30' },
    { date_from: '0000-01-01' },
    { status: 'finished' },
  ]) {
    const res = await t.request('POST', '/contracts', { body: { name: 'B', client_id: clientA, ...body } });
    assert.equal(res.status, 400, JSON.stringify(body));
  }
});

test('GET /contracts filters by status, type, client_id and q, with cursor paging', async () => {
  const mine = await kit.contract({ name: 'Zeta filter target', client_id: clientB, status: 'pending' });
  const byClient = await t.request('GET', `/contracts?client_id=${clientB}`);
  assert.deepEqual(
    byClient.body.data.map((c: { id: number }) => c.id),
    [mine.id],
  );
  const byQ = await t.request('GET', '/contracts?q=zeta%20FILTER');
  assert.deepEqual(
    byQ.body.data.map((c: { id: number }) => c.id),
    [mine.id],
  );
  const pending = await t.request('GET', '/contracts?status=pending');
  assert.ok(pending.body.data.every((c: { status: string }) => c.status === 'pending'));
  assert.ok(pending.body.data.some((c: { id: number }) => c.id === mine.id));
  const templates = await t.request('GET', '/contracts?type=template');
  assert.ok(templates.body.data.length > 0);
  assert.ok(templates.body.data.every((c: { type: string }) => c.type === 'template'));
  const bad = await t.request('GET', '/contracts?status=closed');
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
  const first = await t.request('GET', '/contracts?limit=2');
  assert.equal(first.body.meta.limit, 2);
  assert.ok(typeof first.body.meta.total === 'number');
  const next = await t.request('GET', `/contracts?cursor=${first.body.meta.next_cursor}`);
  assert.equal(next.status, 200);
  assert.equal(next.body.meta.total, undefined);
  assert.ok(next.body.data[0].id > first.body.data[1].id);
  const broken = await t.request('GET', '/contracts?cursor=nope');
  assert.equal(broken.body.error.code, 'INVALID_CURSOR');
  const unknown = await t.request('GET', '/contracts?colour=red');
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test("another company's contracts are invisible: lists, reads and filters", async () => {
  const theirs = await kit.contract({ name: 'Theirs', client_id: otherClient }, other);
  assert.equal((await t.request('GET', `/contracts/${theirs.id}`)).status, 404);
  const list = await t.request('GET', `/contracts?client_id=${otherClient}`);
  assert.deepEqual(list.body.data, []);
  const missing = await t.request('GET', '/contracts/2147483000');
  assert.equal(missing.body.error.code, 'NOT_FOUND');
});

test('read, write and personal keys get 403 FINANCIAL_SCOPE_REQUIRED on every contract route but a write PATCH', async () => {
  const c = await kit.contract({ name: 'Gated', client_id: clientA });
  const calls: Array<[string, string, unknown]> = [
    ['GET', '/contracts', undefined],
    ['GET', `/contracts/${c.id}`, undefined],
    ['POST', '/contracts', { name: 'X', client_id: clientA }],
    ['POST', '/contracts/preview', { name: 'X', client_id: clientA }],
    ['PATCH', `/contracts/${c.id}`, { name: 'Y' }],
    ['DELETE', `/contracts/${c.id}`, undefined],
    ['POST', `/contracts/${c.id}/apply`, { mode: 'add', client_ids: [clientA], start_date: '2026-01-01' }],
  ];
  for (const key of ['read', 'write', 'personal'])
    for (const [method, path, body] of calls) {
      if (key === 'write' && method === 'PATCH') continue;
      const res = await t.request(method, path, { key, body, headers: { 'if-match': '*' } });
      assert.equal(res.status, 403, `${key} ${method} ${path}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  assert.equal((await kit.storedContracts()).filter((r) => r.name === 'X').length, 0);
});

test('the contract-ends sweep finishes active contracts whose last day has come, not pending ones', async () => {
  const active = await kit.contract({ name: 'Sweep active', client_id: clientA, date_until: dayOffset(5) });
  const pending = await kit.contract({ name: 'Sweep pending', client_id: clientA, status: 'pending' });
  assert.equal(active.status, 'active');
  // Time passes: the last days move into the past.
  await t.db.db
    .updateTable('contracts')
    .set({ date_until: dayOffset(-1) })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', 'in', [active.id, pending.id])
    .execute();
  const sweep = loadModules().periodic.find((p) => p.name === 'contract-ends')!;
  const changed = await sweep.run(t.db.db, new Date());
  assert.ok(typeof changed === 'number' && changed >= 1);
  assert.equal((await t.request('GET', `/contracts/${active.id}`)).body.data.status, 'finished');
  assert.equal((await t.request('GET', `/contracts/${pending.id}`)).body.data.status, 'pending');
});
