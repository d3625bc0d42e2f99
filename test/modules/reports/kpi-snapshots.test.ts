import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';
import { runPeriodicOnce } from '../../../src/background/periodic.ts';
import reports from '../../../src/modules/reports/index.ts';
import { reportKit } from './support.ts';

const t = await createTestApp();
const kit = reportKit(t);
const client = await kit.client('Snapshot client');
const JUNE = 'date_from=2025-06-01&date_to=2025-06-30';

const stored = (companyId = t.tenant.companyId) =>
  t.db.db
    .selectFrom('report_snapshots')
    .select([
      sql<string>`date_from::text`.as('date_from'),
      sql<string>`date_to::text`.as('date_to'),
      'figures',
      'computed_at',
      'read_at',
    ])
    .where('company_id', '=', companyId)
    .orderBy('date_from')
    .execute();

const age = (minutes: number, column: 'computed_at' | 'read_at' = 'computed_at') =>
  sql`update report_snapshots set ${sql.ref(column)} = now() - ${`${minutes} minutes`}::interval
      where company_id = ${t.tenant.companyId}`.execute(t.db.db);

test('a read stores the snapshot; later reads answer it (same as_of) until it is refreshed', async () => {
  await kit.invoice(client, 'created', '2025-06-10', '100.00');
  const first = await kit.kpi(JUNE);
  assert.equal(first.body.data.revenue, 100);
  const rows = (await stored()).filter((r) => r.date_from === '2025-06-01');
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.date_to, '2025-06-30');
  assert.equal((rows[0]!.figures as { invoices: { revenue: string } }).invoices.revenue, '100.00');

  await kit.invoice(client, 'paid', '2025-06-11', '23.45');
  const cached = await kit.kpi(JUNE);
  assert.equal(cached.body.data.revenue, 100, 'the snapshot is served while fresh');
  assert.equal(cached.body.data.as_of, first.body.data.as_of);

  const refreshed = await t.request('POST', `/reports/bi/refresh?${JUNE}`);
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.equal(refreshed.headers.get('x-api-preview'), 'true');
  assert.equal(refreshed.body.data.refreshed.length, 1);
  const [entry] = refreshed.body.data.refreshed;
  assert.equal(entry.date_from, '2025-06-01');
  assert.equal(entry.date_to, '2025-06-30');
  assert.ok(entry.as_of > first.body.data.as_of);
  const after = await kit.kpi(JUNE);
  assert.equal(after.body.data.revenue, 123.45);
  assert.equal(after.body.data.as_of, entry.as_of);
});

test('a snapshot older than 10 minutes is recomputed on read', async () => {
  await kit.kpi('date_from=2025-07-01&date_to=2025-07-31');
  await kit.invoice(client, 'sent', '2025-07-02', '10.00');
  await age(9);
  assert.equal((await kit.kpi('date_from=2025-07-01&date_to=2025-07-31')).body.data.revenue, 0);
  await age(11);
  const recomputed = await kit.kpi('date_from=2025-07-01&date_to=2025-07-31');
  assert.equal(recomputed.body.data.revenue, 10);
  assert.ok(Date.now() - Date.parse(recomputed.body.data.as_of) < 60_000);
});

test('refresh without a window renews the windows read in the last day and the current year; not idempotent', async () => {
  await kit.kpi('date_from=2025-08-01&date_to=2025-08-31');
  const year = new Date().toISOString().slice(0, 4);
  const first = await t.request('POST', '/reports/bi/refresh', { body: {} });
  assert.equal(first.status, 200, first.text);
  const windows = first.body.data.refreshed.map((w: { date_from: string; date_to: string }) => w.date_from);
  assert.equal(windows[0], `${year}-01-01`);
  assert.ok(windows.includes('2025-08-01'));
  assert.equal(new Set(windows).size, windows.length, 'each window once');
  const second = await t.request('POST', '/reports/bi/refresh', {
    body: {},
    headers: { 'idempotency-key': 'refresh-1' },
  });
  const third = await t.request('POST', '/reports/bi/refresh', {
    body: {},
    headers: { 'idempotency-key': 'refresh-1' },
  });
  assert.equal(third.status, 200);
  assert.equal(third.headers.get('idempotency-replayed'), null, 'the path is not covered: each call recomputes');
  assert.ok(third.body.data.refreshed[0].as_of > second.body.data.refreshed[0].as_of);
  // No body at all works too, and a body is ignored (the window goes in the query).
  const bare = await t.request('POST', '/reports/bi/refresh');
  assert.equal(bare.status, 200, bare.text);
  const ignored = await t.request('POST', '/reports/bi/refresh', { body: { date_from: 'x' } });
  assert.equal(ignored.status, 200, ignored.text);
});

test('refresh needs the admin tier and a sound window', async () => {
  for (const key of ['read', 'write', 'personal']) {
    const res = await t.request('POST', '/reports/bi/refresh', { key, body: {} });
    assert.equal(res.status, 403, key);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_scope, 'admin');
  }
  for (const [query, code] of [
    ['window=x', 'UNKNOWN_FILTER_FIELD'],
    ['date_from=2025-02-30', 'VALIDATION_ERROR'],
    ['date_from=20250101', 'VALIDATION_ERROR'],
    ['date_from=2025-01-01&date_to=2026-06-01', 'VALIDATION_ERROR'],
  ]) {
    const res = await t.request('POST', `/reports/bi/refresh?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.error.code, code);
  }
  const reversed = await t.request('POST', '/reports/bi/refresh?date_from=2025-03-02&date_to=2025-03-01');
  assert.equal(reversed.status, 400);
  assert.equal(reversed.body.error.details.reason, 'INVALID_DATE_RANGE');
});

test('the periodic task renews snapshots read lately and drops those unread for a week', async () => {
  await kit.kpi('date_from=2025-09-01&date_to=2025-09-30');
  await kit.kpi('date_from=2025-10-01&date_to=2025-10-31');
  await kit.invoice(client, 'created', '2025-09-05', '5.55');
  await age(6);
  await sql`update report_snapshots set read_at = now() - interval '8 days'
    where company_id = ${t.tenant.companyId} and date_from = '2025-10-01'`.execute(t.db.db);
  const task = reports.periodic!.find((p) => p.name === 'report-snapshots')!;
  assert.equal(task.everyMs, 5 * 60_000);
  const outcome = await runPeriodicOnce(t.db.db, [task]);
  const result = outcome['report-snapshots'] as { refreshed: number; dropped: number };
  assert.ok(result.refreshed >= 1 && result.dropped >= 1, JSON.stringify(result));
  const rows = await stored();
  assert.ok(!rows.some((r) => r.date_from === '2025-10-01'), 'the unread window is gone');
  const september = rows.find((r) => r.date_from === '2025-09-01')!;
  assert.equal((september.figures as { invoices: { revenue: string } }).invoices.revenue, '5.55');
  assert.equal((await kit.kpi('date_from=2025-09-01&date_to=2025-09-30')).body.data.revenue, 5.55);
});

test("a company's snapshots are its own", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const res = await reportKit(t, other).kpi(JUNE);
  assert.equal(res.body.data.revenue, 0);
  assert.equal((await stored(other.companyId)).length, 1);
});
