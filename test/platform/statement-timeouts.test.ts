import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type Response, type TestApp } from '../helpers.ts';

/**
 * SVC_STATEMENT_TIMEOUT cuts a request's statement, SVC_REPORT_STATEMENT_TIMEOUT a report's. A statement made to
 * wait on a lock held by the test is a statement that runs as long as the test decides, whatever the machine.
 */
const requests = await createTestApp({ statementTimeoutMs: 400, reportStatementTimeoutMs: 20_000 });
const reports = await createTestApp({ statementTimeoutMs: 20_000, reportStatementTimeoutMs: 400 });
for (const app of [requests, reports]) {
  const on = await app.request('PATCH', '/company/billing-settings', { body: { billing_active: true } });
  assert.equal(on.status, 200, on.text);
}

/** Holds an exclusive lock on a table (or a row) in a transaction of its own until release() is called. */
async function holdLock(app: TestApp, statement: ReturnType<typeof sql>) {
  const tx = await app.db.db.startTransaction().execute();
  await statement.execute(tx);
  return { release: () => tx.commit().execute() };
}

async function timed(app: TestApp, method: string, path: string, body?: unknown) {
  const started = performance.now();
  const res = await app.request(method, path, { body });
  return { res, ms: performance.now() - started };
}

function assertTimedOut(res: Response): void {
  assert.equal(res.status, 503, res.text);
  assert.deepEqual(Object.keys(res.body.error), ['code', 'message']);
  assert.equal(res.body.error.code, 'QUERY_TIMEOUT');
  assert.match(res.body.error.message, /more database time than the server allows/);
}

test('a request statement past SVC_STATEMENT_TIMEOUT answers 503 QUERY_TIMEOUT, and a write stores nothing', async () => {
  const client = (await requests.request('POST', '/clients', { body: { name: 'Locked' } })).body.data;
  const lock = await holdLock(requests, sql`select 1 from clients where id = ${client.id} for update`);
  const pending = timed(requests, 'PATCH', `/clients/${client.id}`, { name: 'Renamed' });
  const read = await timed(requests, 'GET', '/time-entries');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await lock.release();
  const write = await pending;
  assertTimedOut(write.res);
  assert.ok(write.ms >= 350 && write.ms < 5000, `answered after ${Math.round(write.ms)} ms`);
  const stored = await requests.db.db
    .selectFrom('clients')
    .select('name')
    .where('id', '=', client.id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.name, 'Locked');
  assert.equal(read.res.status, 200, 'a read that waits on nothing is not affected');
  // The connection that timed out serves the next request normally.
  const again = await requests.request('PATCH', `/clients/${client.id}`, { body: { name: 'Renamed' } });
  assert.equal(again.status, 200, again.text);
});

test('reports run under SVC_REPORT_STATEMENT_TIMEOUT: longer than a request may wait, and cut at their own', async () => {
  // The same wait (about a second) on the time entries: past the request limit, within the report limit...
  const lock = await holdLock(requests, sql`lock table time_entries in access exclusive mode`);
  const plain = timed(requests, 'GET', '/time-entries');
  const missed = timed(requests, 'GET', '/missed-billing');
  const hours = timed(requests, 'GET', '/reports/time-summary');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await lock.release();
  assertTimedOut((await plain).res);
  for (const report of [await missed, await hours]) {
    assert.equal(report.res.status, 200, report.res.text);
    assert.ok(report.ms >= 900, `the report waited ${Math.round(report.ms)} ms`);
  }

  // ... and a report is cut at its own limit, while requests keep theirs.
  const held = await holdLock(reports, sql`lock table time_entries in access exclusive mode`);
  const cut = await Promise.all([
    timed(reports, 'GET', '/missed-billing'),
    timed(reports, 'GET', '/reports/time-summary'),
    timed(reports, 'GET', '/reports/kpi-summary'),
  ]);
  const clients = await reports.request('GET', '/clients');
  await held.release();
  for (const { res, ms } of cut) {
    assertTimedOut(res);
    assert.ok(ms < 5000, `answered after ${Math.round(ms)} ms`);
  }
  assert.equal(clients.status, 200);
});
