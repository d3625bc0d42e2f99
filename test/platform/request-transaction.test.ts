import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type Response } from '../helpers.ts';

const t = await createTestApp();
const code = (res: Response) => res.body?.error?.code;
let counter = 0;
const uniqueName = (label: string) => `${label} ${++counter}`;

const post = (name: string, key: string, headers: Record<string, string> = {}) =>
  t.request('POST', '/clients', { body: { name }, headers: { 'idempotency-key': key, ...headers } });

const clientIds = async (name: string) =>
  (await t.db.db.selectFrom('clients').select('id').where('name', '=', name).execute()).map((r) => r.id);
const storedKey = (key: string) =>
  t.db.db.selectFrom('idempotency_keys').select(['state']).where('key', '=', key).executeTakeFirst();
const auditRows = (recordIds: number[]) =>
  recordIds.length === 0
    ? Promise.resolve([])
    : t.db.db.selectFrom('activities').select('id').where('record_id', 'in', recordIds).execute();

// Failures injected by the test's own database: an audit row whose request id says so refuses to be written
// (at once, or only when its transaction commits).
await sql`create function test_fail_audit() returns trigger language plpgsql as $$
  begin raise exception 'injected audit failure'; end $$`.execute(t.db.db);
await sql`create trigger test_fail_audit before insert on activities for each row
  when (new.request_id like 'fail-audit-%') execute function test_fail_audit()`.execute(t.db.db);
await sql`create constraint trigger test_fail_commit after insert on activities deferrable initially deferred
  for each row when (new.request_id like 'fail-commit-%') execute function test_fail_audit()`.execute(t.db.db);

test('the business write, its event, its audit row and its idempotent outcome commit in one transaction', async () => {
  const name = uniqueName('Together');
  const res = await post(name, 'together-1');
  assert.equal(res.status, 201, res.text);
  const id = res.body.data.id;
  const xmin = async (
    table: 'clients' | 'events' | 'activities' | 'idempotency_keys',
    column: string,
    value: unknown,
  ) =>
    (
      await sql<{
        xmin: string;
      }>`select xmin::text as xmin from ${sql.table(table)} where ${sql.ref(column)} = ${value}`.execute(t.db.db)
    ).rows.map((r) => r.xmin);
  const [business] = await xmin('clients', 'id', id);
  assert.ok(business);
  assert.deepEqual(await xmin('events', 'record_id', id), [business], 'the event is in the same transaction');
  assert.deepEqual(await xmin('activities', 'record_id', id), [business], 'the audit row is in the same transaction');
  assert.deepEqual(await xmin('idempotency_keys', 'key', 'together-1'), [business], 'so is the stored outcome');
  assert.equal((await storedKey('together-1'))?.state, 'done');
});

test('a failing audit insert rolls the write back: 500, nothing stored, the key released; a retry runs once', async () => {
  const name = uniqueName('Audit fails');
  const failed = await post(name, 'audit-fail-1', { 'x-request-id': 'fail-audit-1' });
  assert.equal(failed.status, 500, failed.text);
  assert.equal(code(failed), 'INTERNAL_ERROR');
  assert.equal(failed.headers.get('location'), null, 'no trace of the record that was not created');
  assert.equal(failed.headers.get('etag'), null);
  assert.deepEqual(await clientIds(name), [], 'the business write was not committed');
  assert.equal(await storedKey('audit-fail-1'), undefined, 'the key is free for a retry');

  const retry = await post(name, 'audit-fail-1');
  assert.equal(retry.status, 201, retry.text);
  assert.equal(retry.headers.get('idempotency-replayed'), null);
  const replay = await post(name, 'audit-fail-1');
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.equal(replay.text, retry.text);
  const ids = await clientIds(name);
  assert.deepEqual(ids, [retry.body.data.id], 'exactly one run');
  assert.equal((await auditRows(ids)).length, 1);
});

test('a failing commit answers 500 INTERNAL_ERROR, not the success body, and leaves nothing behind', async () => {
  const name = uniqueName('Commit fails');
  const failed = await post(name, 'commit-fail-1', { 'x-request-id': 'fail-commit-1' });
  assert.equal(failed.status, 500, failed.text);
  assert.equal(code(failed), 'INTERNAL_ERROR');
  assert.deepEqual(await clientIds(name), []);
  assert.equal(await storedKey('commit-fail-1'), undefined);
  // Without an Idempotency-Key as well: a write that did not commit never answers 2xx.
  const plain = await t.request('PATCH', `/clients/${(await post(uniqueName('Base'), 'base-1')).body.data.id}`, {
    body: { name: `${name} renamed` },
    headers: { 'x-request-id': 'fail-commit-2' },
  });
  assert.equal(plain.status, 500, plain.text);
  assert.deepEqual(await clientIds(`${name} renamed`), []);
});

test('a request that lost its key to a takeover cannot commit: the operation runs exactly once', async () => {
  const name = uniqueName('Takeover');
  let first: Promise<Response> | undefined;
  let second: Promise<Response> | undefined;
  await t.db.db.transaction().execute(async (tx) => {
    // Both requests claim the key, then wait on this lock to insert their client.
    await sql`lock table clients in exclusive mode`.execute(tx);
    first = post(name, 'takeover-1');
    await until(async () => (await storedKey('takeover-1'))?.state === 'running', 'the first claim');
    // The first request looks dead (5 minutes and more): the retry may take the key over.
    await t.db.db
      .updateTable('idempotency_keys')
      .set({ created_at: sql`now() - interval '301 seconds'` as never })
      .where('key', '=', 'takeover-1')
      .execute();
    second = post(name, 'takeover-1');
    await until(
      async () =>
        Number(
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db.db)
          ).rows[0]!.n,
        ) >= 2,
      'both requests waiting on the lock',
    );
  });
  const [a, b] = await Promise.all([first!, second!]);
  assert.equal(a.status, 409, a.text);
  assert.equal(code(a), 'IDEMPOTENCY_CONFLICT');
  assert.equal(b.status, 201, b.text);
  assert.deepEqual(await clientIds(name), [b.body.data.id]);
  const replay = await post(name, 'takeover-1');
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.equal(replay.text, b.text);
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const openTransactions = async () =>
  Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state like 'idle in transaction%'`.execute(
        t.db.db,
      )
    ).rows[0]!.n,
  );

test('failing and aborted writes give every connection back to the pool', async () => {
  const failing = Array.from({ length: 40 }, (_, i) => {
    if (i % 4 === 0) return post(uniqueName('Leak'), `leak-${i}`, { 'x-request-id': `fail-audit-leak-${i}` });
    if (i % 4 === 1) return post(uniqueName('Leak'), `leak-${i}`, { 'x-request-id': `fail-commit-leak-${i}` });
    if (i % 4 === 2) return t.request('POST', '/contacts', { body: { client_id: 999999, name: 'Nobody' } });
    return t.request('PATCH', '/clients/999999', { body: { name: 'Nobody' } });
  });
  const statuses = (await Promise.all(failing)).map((r) => r.status);
  assert.deepEqual([...new Set(statuses)].sort(), [400, 404, 500]);

  const names = Array.from({ length: 6 }, () => uniqueName('Aborted'));
  await t.db.db.transaction().execute(async (tx) => {
    await sql`lock table clients in exclusive mode`.execute(tx);
    const aborts = names.map(() => new AbortController());
    const pending = names.map((name, i) =>
      fetch(`${t.baseUrl}/api/v3/clients`, {
        method: 'POST',
        signal: aborts[i]!.signal,
        headers: {
          'content-type': 'application/json',
          'x-service-company': t.tenant.companyId,
          'x-api-key': t.tenant.keys.admin,
          'idempotency-key': `aborted-${i}`,
          'x-request-id': `aborted-write-${i}`,
        },
        body: JSON.stringify({ name }),
      }).catch((error: Error) => error),
    );
    await until(
      async () =>
        Number(
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db.db)
          ).rows[0]!.n,
        ) >= names.length,
      'the writes to wait on the lock',
    );
    for (const abort of aborts) abort.abort();
    for (const result of await Promise.all(pending)) assert.ok(result instanceof Error);
  });

  await until(
    async () => t.db.pool.idleCount === t.db.pool.totalCount && (await openTransactions()) === 0,
    'every connection to be idle',
  );
  assert.equal(t.db.pool.waitingCount, 0);
  for (const name of names) assert.deepEqual(await clientIds(name), [], 'an aborted write is rolled back');
  const keys = await t.db.db.selectFrom('idempotency_keys').select('key').where('key', 'like', 'aborted-%').execute();
  assert.deepEqual(keys, [], 'and its key released');
  // A client that left is no error of the service's: logged at info, never as an unhandled error.
  const lines = t.logs.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line));
  const aborted = lines.filter((line) => String(line.request_id).startsWith('aborted-write-'));
  assert.deepEqual(
    aborted.filter((line) => line.level >= 50),
    [],
  );
  for (const i of names.keys())
    assert.ok(
      aborted.some((line) => line.request_id === `aborted-write-${i}` && /client went away/.test(line.msg)),
      `request ${i} is logged as abandoned`,
    );
  // The pool (10 connections) still serves writes.
  const after = await Promise.all(
    Array.from({ length: 15 }, () => t.request('POST', '/clients', { body: { name: uniqueName('After') } })),
  );
  assert.deepEqual([...new Set(after.map((r) => r.status))], [201]);
});
