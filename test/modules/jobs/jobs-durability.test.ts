import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { createClient, createTask, waitForJob } from '../tasks/fixtures.ts';
import { runJobsOnce as runJobs } from '../../../src/modules/jobs/index.ts';
import { advance, claimQueued, LostClaim, runClaimed } from '../../../src/modules/jobs/index.ts';
import { loadModules } from '../../../src/modules/index.ts';
import { runBulkJob } from '../../../src/modules/tasks/tasks.bulk.ts';
import type { Ctx } from '../../../src/platform/context.ts';

const t = await createTestApp();
/** One poll cycle of a runner that runs every job type the modules declare. */
const runJobsOnce = (db: typeof t.db.db) => runJobs(db, loadModules().jobs);

/** Task rows written in one statement (the API would take a request each). */
async function insertTasks(count: number, status = 'new'): Promise<number[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    company_id: t.tenant.companyId,
    title: `Bulk ${i}`,
    status,
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

/** A job row as a process that queued (or started) it would have left it. */
async function insertJob(
  body: object,
  values: Record<string, unknown> = {},
  tenant: TenantFixture = t.tenant,
): Promise<number> {
  const row = await t.db.db
    .insertInto('jobs')
    .values({
      company_id: tenant.companyId,
      type: 'task_bulk_action',
      params: JSON.stringify(body),
      api_key_id: tenant.keyIds.admin,
      total_count: null,
      failed_count: null,
      failed_client_ids: null,
      skipped_count: null,
      skipped_client_ids: null,
      result: null,
      error: null,
      started_at: null,
      finished_at: null,
      ...values,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const storedJob = (id: number) =>
  t.db.db
    .selectFrom('jobs')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const statuses = async (ids: number[]) =>
  (
    await t.db.db
      .selectFrom('tasks')
      .select(['id', 'status'])
      .where('company_id', '=', t.tenant.companyId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute()
  ).map((r) => r.status);
const minutesAgo = (minutes: number) => sql<string>`now() - make_interval(mins => ${minutes})`;

test('a running job whose heartbeat is stale is resumed after its last committed chunk and finishes in one poll', async () => {
  const ids = await insertTasks(150);
  const startedAt = '2026-01-01T10:00:00.000Z';
  // The dead process had committed the first chunk of 100: those tasks are left as they are here, to show
  // the resumed job does not go over them again.
  const id = await insertJob(
    { action: 'status', status: 'in_progress', filter: { ids } },
    {
      status: 'running',
      target_ids: ids,
      total_count: 150,
      processed_count: 100,
      failed_count: 0,
      started_at: startedAt,
      heartbeat_at: minutesAgo(5),
    },
  );
  const alive = await insertJob(
    { action: 'status', status: 'finished', filter: { ids } },
    {
      status: 'running',
      target_ids: ids,
      total_count: 150,
      processed_count: 0,
      failed_count: 0,
      started_at: startedAt,
      heartbeat_at: minutesAgo(0),
    },
  );

  const ran = await runJobsOnce(t.db.db);
  assert.ok(ran.includes(id));
  assert.ok(!ran.includes(alive), 'a job with a fresh heartbeat belongs to a live process');
  const job = await storedJob(id);
  assert.deepEqual(
    [job.status, job.total_count, job.processed_count, job.failed_count, job.error],
    ['finished', 150, 150, 0, null],
  );
  assert.equal(job.started_at, startedAt, 'started_at is when the job first started');
  assert.equal(job.heartbeat_at, null);
  assert.notEqual(job.finished_at, null);
  assert.deepEqual(await statuses(ids.slice(0, 100)), Array(100).fill('new'));
  assert.deepEqual(await statuses(ids.slice(100)), Array(50).fill('in_progress'));
  assert.equal((await storedJob(alive)).status, 'running');
  const read = await t.request('GET', `/jobs/${id}`, { key: 'read' });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(
    [read.body.data.status, read.body.data.processed_count, read.body.data.total_count],
    ['finished', 150, 150],
  );
});

test('a queued job nobody started is picked up by a poll, in the rights of the key that queued it', async () => {
  const client = await createClient(t, { name: 'Visible to the member' });
  const visible = await createTask(t, { assignees: [t.tenant.memberPersonId] });
  const hidden = await createTask(t, { client_id: client });
  const id = await insertJob(
    { action: 'delete', filter: { ids: [visible.id, hidden.id] } },
    { api_key_id: t.tenant.keyIds.personal },
  );

  assert.deepEqual(await runJobsOnce(t.db.db), [id]);
  const job = await waitForJob(t, id, 'personal');
  assert.deepEqual([job.status, job.total_count, job.processed_count, job.failed_count], ['finished', 1, 1, 0]);
  assert.notEqual(job.started_at, null);
  const rows = await t.db.db
    .selectFrom('tasks')
    .select(['id', 'deleted_at'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', 'in', [visible.id, hidden.id])
    .orderBy('id')
    .execute();
  assert.deepEqual(
    rows.map((r) => r.deleted_at !== null),
    [true, false],
    "the plain member's key cannot reach a task it does not see",
  );
  assert.deepEqual(await runJobsOnce(t.db.db), [], 'nothing is left to run');
});

test('two concurrent poll cycles never claim the same job', async () => {
  const ids = await insertTasks(120);
  const jobIds = [
    await insertJob({ action: 'status', status: 'in_progress', filter: { ids } }),
    await insertJob({ action: 'status', status: 'in_progress', filter: { ids: ids.slice(0, 10) } }),
    await insertJob({ action: 'assignee', assignee_id: t.tenant.memberPersonId, mode: 'add', filter: { ids } }),
    await insertJob(
      { action: 'status', status: 'in_progress', filter: { ids } },
      { status: 'running', heartbeat_at: minutesAgo(2) },
    ),
  ];
  const [first, second] = await Promise.all([runJobsOnce(t.db.db), runJobsOnce(t.db.db)]);
  const all = [...first!, ...second!];
  assert.deepEqual(
    [...all].sort((a, b) => a - b),
    jobIds,
    'each job ran exactly once',
  );
  for (const id of jobIds) {
    const job = await storedJob(id);
    assert.equal(job.status, 'finished');
    assert.equal(job.processed_count, job.total_count, 'progress counts every task once');
  }
  const assigned = await t.db.db
    .selectFrom('task_assignees')
    .select('task_id')
    .where('company_id', '=', t.tenant.companyId)
    .where('task_id', 'in', ids)
    .execute();
  assert.equal(assigned.length, 120);
});

test('a job stopped by shutdown goes back to the queue with its selection and the next poll finishes it', async () => {
  const ids = await insertTasks(3);
  const id = await insertJob({ action: 'status', status: 'finished', filter: { ids } });
  const job = (await claimQueued(t.db.db, t.tenant.companyId, id))!;
  assert.equal((await storedJob(id)).status, 'running');
  await runClaimed(t.db.db, job, runBulkJob, AbortSignal.abort());
  const released = await storedJob(id);
  assert.deepEqual(
    [released.status, released.total_count, released.processed_count, released.target_ids],
    ['queued', 3, 0, ids],
  );
  assert.equal(
    await claimQueued(t.db.db, t.tenant.companyId, id).then((again) => again?.id),
    id,
    'queued again, so claimable',
  );
  // The claim above is now a running job of a process that died.
  await t.db.db
    .updateTable('jobs')
    .set({ heartbeat_at: minutesAgo(2) })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .execute();
  assert.deepEqual(await runJobsOnce(t.db.db), [id]);
  assert.deepEqual(await statuses(ids), ['finished', 'finished', 'finished']);
});

test('progress from a runner that lost its job is refused; a job whose key is gone fails', async () => {
  const ids = await insertTasks(1);
  const taken = await insertJob(
    { action: 'status', status: 'finished', filter: { ids } },
    { status: 'running', processed_count: 0, heartbeat_at: minutesAgo(0) },
  );
  const ctx = { db: t.db.db, companyId: t.tenant.companyId } as Ctx;
  await assert.rejects(advance(ctx, taken, 5, 6, 0), LostClaim);
  assert.equal((await storedJob(taken)).processed_count, 0);

  const orphan = await insertJob({ action: 'delete', filter: { ids } }, { api_key_id: 999_999 });
  assert.deepEqual(await runJobsOnce(t.db.db), [orphan]);
  const failed = await storedJob(orphan);
  assert.equal(failed.status, 'failed');
  assert.match(failed.error ?? '', /API key/);
  assert.deepEqual(await statuses(ids), ['new']);
});

test('POST /tasks/bulk-action still answers 202 and the job starts at once in this process', async () => {
  const task = await createTask(t);
  const res = await t.request('POST', '/tasks/bulk-action', {
    body: { action: 'status', status: 'in_progress', filter: { ids: [task.id] } },
  });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.data.status, 'queued');
  const job = await waitForJob(t, res.body.data.id);
  assert.deepEqual([job.status, job.total_count, job.processed_count], ['finished', 1, 1]);
  const row = await storedJob(res.body.data.id);
  assert.deepEqual(row.target_ids, [task.id]);
});
