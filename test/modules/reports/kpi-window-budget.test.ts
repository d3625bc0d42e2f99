import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';
import { reportKit } from './support.ts';

const t = await createTestApp();
const tenant = await t.newTenant({ name: 'Budget Co' });
const kit = reportKit(t, tenant);
const client = await kit.client('Budget client');
await kit.invoice(client, 'created', '2025-03-10', '100.00');

const kpi = (query: string, key: 'admin' | 'read' = 'read') =>
  t.request('GET', `/reports/kpi-summary?${query}`, { tenant, key });
/** The n-th one-day window of 2025 (1-based): a new window for every n. */
const day = (n: number) => {
  const date = new Date(Date.UTC(2025, 0, n)).toISOString().slice(0, 10);
  return `date_from=${date}&date_to=${date}`;
};
const counted = async () =>
  (
    await sql<{ n: number }>`select count(*)::int as n from report_snapshots
      where company_id = ${tenant.companyId} and read_computed_at is not null`.execute(t.db.db)
  ).rows[0]!.n;

test('reads compute at most 30 KPI windows per 10 minutes per company; a new one past that is 429', async () => {
  const first = await kpi('date_from=2025-03-01&date_to=2025-03-31');
  assert.equal(first.status, 200, first.text);
  for (let n = 1; n < 30; n++) assert.equal((await kpi(day(n))).status, 200, `window ${n}`);
  assert.equal(await counted(), 30);

  const over = await kpi(day(30));
  assert.equal(over.status, 429, over.text);
  assert.equal(over.body.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.deepEqual(
    [over.body.error.details.reason, over.body.error.details.limit, over.body.error.details.per_seconds],
    ['REPORT_WINDOWS', 30, 600],
  );
  const retryAfter = Number(over.headers.get('retry-after'));
  assert.ok(retryAfter > 0 && retryAfter <= 600, `Retry-After ${retryAfter}`);
  assert.equal(over.body.error.details.retry_after, retryAfter);
  assert.equal(await counted(), 30, 'nothing was computed');

  // A window already computed is answered: a fresh one as stored, an outdated one as it is (as_of says so).
  const hit = await kpi('date_from=2025-03-01&date_to=2025-03-31');
  assert.equal(hit.status, 200);
  assert.equal(hit.body.data.as_of, first.body.data.as_of);
  await sql`update report_snapshots set computed_at = now() - interval '20 minutes'
    where company_id = ${tenant.companyId} and date_from = '2025-03-01'`.execute(t.db.db);
  await kit.invoice(client, 'created', '2025-03-11', '50.00');
  const stale = await kpi('date_from=2025-03-01&date_to=2025-03-31', 'admin');
  assert.equal(stale.status, 200, stale.text);
  assert.equal(stale.body.data.revenue, 100, 'served as stored, not recomputed');
  assert.ok(stale.body.data.as_of < first.body.data.as_of);

  // An administrator's explicit refresh is not a read: it computes, and is not counted.
  const refreshed = await t.request('POST', `/reports/bi/refresh?${day(40)}`, { tenant });
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.equal(await counted(), 30);

  // Ten minutes later the reads may compute again.
  await sql`update report_snapshots set read_computed_at = read_computed_at - interval '10 minutes'
    where company_id = ${tenant.companyId}`.execute(t.db.db);
  const later = await kpi(day(30));
  assert.equal(later.status, 200, later.text);
  const recomputed = await kpi('date_from=2025-03-01&date_to=2025-03-31', 'admin');
  assert.equal(recomputed.body.data.revenue, 150);
});

test('the budget is per company', async () => {
  const res = await t.request('GET', `/reports/kpi-summary?${day(200)}`, { key: 'read' });
  assert.equal(res.status, 200, 'another company has its own');
});
