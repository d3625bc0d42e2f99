import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../helpers.ts';
import { makeDataDir, startService } from '../main/support.ts';

const t = await createTestApp();
const databaseUrl = t.db.pool.options.connectionString as string;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const clientIds = async (name: string) =>
  (await t.db.db.selectFrom('clients').select('id').where('name', '=', name).execute()).map((r) => r.id);

// The commit of a write that creates a "Crash ..." client takes a second in the database (a deferred trigger
// runs at COMMIT): time enough to kill the service after it asked to commit and before it could answer.
await sql`create function test_slow_commit() returns trigger language plpgsql as $$
  begin perform pg_sleep(1); return null; end $$`.execute(t.db.db);
await sql`create constraint trigger test_slow_commit after insert on clients deferrable initially deferred
  for each row when (new.name like 'Crash %') execute function test_slow_commit()`.execute(t.db.db);

test('a write committed by a service killed before it answered is replayed on retry, never run again', async () => {
  const service = startService(await makeDataDir(), { DATABASE_URL: databaseUrl });
  const [, baseUrl] = await service.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+) /);
  const name = 'Crash 1';
  const lost = fetch(`${baseUrl}/api/v3/clients`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-company': t.tenant.companyId,
      'x-api-key': t.tenant.keys.admin,
      'idempotency-key': 'crash-1',
    },
    body: JSON.stringify({ name }),
  }).then(
    () => 'answered',
    () => 'lost',
  );
  await until(
    async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event = 'PgSleep'`.execute(t.db.db)
      ).rows[0]!.n > 0,
    'the service to commit',
  );
  service.child.kill('SIGKILL');
  assert.equal((await service.exited).signal, 'SIGKILL');
  assert.equal(await lost, 'lost', 'the caller never got its answer');
  await until(async () => (await clientIds(name)).length > 0, 'the commit to land');

  const [id] = await clientIds(name);
  const audit = await t.db.db.selectFrom('activities').select('action').where('record_id', '=', id!).execute();
  assert.deepEqual(audit, [{ action: 'created' }], 'the audit row committed with the write');
  // Long after the crash (past the 5 minutes that let a retry take over a key whose request died):
  await t.db.db
    .updateTable('idempotency_keys')
    .set({ created_at: sql`now() - interval '1 hour'` as never })
    .where('key', '=', 'crash-1')
    .execute();
  const retry = await t.request('POST', '/clients', { body: { name }, headers: { 'idempotency-key': 'crash-1' } });
  assert.equal(retry.status, 201, retry.text);
  assert.equal(retry.headers.get('idempotency-replayed'), 'true', 'the stored outcome, not a second run');
  assert.equal(retry.body.data.id, id);
  assert.deepEqual(await clientIds(name), [id]);
});
