import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

// A job acts with the rights of the key that queued it, only while that key and its company could still make
// the request: checked when the job is claimed and before each chunk (decision 0016).
const t = await createTestApp();

// Gates in the test's database: a job of a company whose gate is held waits when claimed (1) or inside its
// first chunk (2), so the test can change the key or the company at that point.
await sql`create function test_job_gate() returns trigger language plpgsql as $$ begin
  if old.status = 'queued' and new.status = 'running' then perform pg_advisory_xact_lock(hashtext(new.company_id::text), 1); end if;
  if old.processed_count = 0 and new.processed_count > 0 then perform pg_advisory_xact_lock(hashtext(new.company_id::text), 2); end if;
  return new; end $$`.execute(t.db.db);
await sql`create trigger test_job_gate before update on jobs for each row execute function test_job_gate()`.execute(
  t.db.db,
);

/** Holds a company's job gate until the returned function opens it. */
async function holdGate(tenant: TenantFixture, gate: 1 | 2): Promise<() => Promise<void>> {
  const client = await t.db.pool.connect();
  await client.query('select pg_advisory_lock(hashtext($1), $2)', [tenant.companyId, gate]);
  let held = true;
  return async () => {
    if (!held) return;
    held = false;
    await client.query('select pg_advisory_unlock(hashtext($1), $2)', [tenant.companyId, gate]);
    client.release();
  };
}

async function untilWaitingAtGate(): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event = 'advisory'`.execute(t.db.db);
    if (waiting.rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no job reached the gate');
}

async function insertTasks(tenant: TenantFixture, count: number): Promise<number[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    company_id: tenant.companyId,
    title: `Gated ${i}`,
    status: 'new',
    type: 'task',
  }));
  return (
    await t.db.db
      .insertInto('tasks')
      .values(rows as never)
      .returning('id')
      .execute()
  ).map((r) => r.id);
}

async function settledJob(tenant: TenantFixture, id: number) {
  for (let attempt = 0; attempt < 250; attempt++) {
    const job = await t.db.db
      .selectFrom('jobs')
      .select(['status', 'error', 'processed_count', 'total_count'])
      .where('company_id', '=', tenant.companyId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (job.status === 'finished' || job.status === 'failed') return job;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`job ${id} did not settle`);
}

const statusesOf = async (tenant: TenantFixture, ids: number[]) =>
  (
    await t.db.db
      .selectFrom('tasks')
      .select(['id', 'status'])
      .where('company_id', '=', tenant.companyId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute()
  ).map((r) => r.status);

test('a job whose key is revoked before it runs fails with the reason and changes nothing', async () => {
  const tenant = await t.newTenant();
  const ids = await insertTasks(tenant, 3);
  const open = await holdGate(tenant, 1);
  try {
    const res = await t.request('POST', '/tasks/bulk-action', {
      tenant,
      key: 'write',
      body: { action: 'status', status: 'finished', filter: { ids } },
    });
    assert.equal(res.status, 202, res.text);
    await untilWaitingAtGate();
    const revoked = await t.request('DELETE', `/auth/keys/${tenant.keyIds.write}`, { tenant, key: 'admin' });
    assert.equal(revoked.status, 204, revoked.text);
    await open();
    const job = await settledJob(tenant, res.body.data.id);
    assert.deepEqual(job, {
      status: 'failed',
      error: 'the API key that started this job has been revoked',
      processed_count: 0,
      total_count: null,
    });
  } finally {
    await open();
  }
  assert.deepEqual(await statusesOf(tenant, ids), ['new', 'new', 'new']);
});

test('a job whose company lapses between chunks fails before the next chunk; the rest stays untouched', async () => {
  const tenant = await t.newTenant();
  const ids = await insertTasks(tenant, 250);
  const open = await holdGate(tenant, 2);
  let jobId = 0;
  try {
    const res = await t.request('POST', '/tasks/bulk-action', {
      tenant,
      key: 'write',
      body: { action: 'status', status: 'finished', filter: { ids } },
    });
    assert.equal(res.status, 202, res.text);
    jobId = res.body.data.id;
    // The first chunk has passed its check and waits to record its progress.
    await untilWaitingAtGate();
    await t.db.db
      .updateTable('companies')
      .set({ subscription_status: 'lapsed' })
      .where('id', '=', tenant.companyId)
      .execute();
    await open();
  } finally {
    await open();
  }
  const job = await settledJob(tenant, jobId);
  assert.deepEqual(job, {
    status: 'failed',
    error: 'the company subscription has lapsed',
    processed_count: 100,
    total_count: 250,
  });
  const statuses = await statusesOf(tenant, ids);
  assert.deepEqual(new Set(statuses.slice(0, 100)), new Set(['finished']), 'the chunk checked before the lapse');
  assert.deepEqual(new Set(statuses.slice(100)), new Set(['new']), 'nothing after it');
});

test('a queued job of a company whose plan no longer includes the API, or whose key expired, fails when claimed', async () => {
  for (const [change, error] of [
    ['plan', 'the company plan no longer includes API access'],
    ['expiry', 'the API key that started this job has expired'],
  ] as const) {
    const tenant = await t.newTenant();
    const ids = await insertTasks(tenant, 2);
    const open = await holdGate(tenant, 1);
    let jobId = 0;
    try {
      const res = await t.request('POST', '/tasks/bulk-action', {
        tenant,
        key: 'write',
        body: { action: 'delete', filter: { ids } },
      });
      assert.equal(res.status, 202, res.text);
      jobId = res.body.data.id;
      await untilWaitingAtGate();
      if (change === 'plan')
        await t.db.db.updateTable('companies').set({ plan: 'basic' }).where('id', '=', tenant.companyId).execute();
      else
        await t.db.db
          .updateTable('api_keys')
          .set({ expires_at: sql`now() - interval '1 second'` as never })
          .where('id', '=', tenant.keyIds.write)
          .execute();
      await open();
    } finally {
      await open();
    }
    assert.deepEqual(await settledJob(tenant, jobId), {
      status: 'failed',
      error,
      processed_count: 0,
      total_count: null,
    });
    const live = await t.db.db
      .selectFrom('tasks')
      .select('id')
      .where('company_id', '=', tenant.companyId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    assert.equal(live.length, 2, `${change}: nothing deleted`);
  }
});
