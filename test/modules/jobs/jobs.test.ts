import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { createTask, waitForJob } from '../tasks/fixtures.ts';

const t = await createTestApp();
const other = await t.newTenant();

async function startJob(key: string, tenant = t.tenant): Promise<number> {
  const task = await createTask(t, { assignees: [tenant.memberPersonId] }, { tenant });
  const res = await t.request('POST', '/tasks/bulk-action', {
    key,
    tenant,
    body: { action: 'status', status: 'in_progress', filter: { ids: [task.id] } },
  });
  assert.equal(res.status, 202, res.text);
  return res.body.data.id;
}

test('GET /jobs/{job_id} returns the job with its progress fields', async () => {
  const id = await startJob('admin');
  const job = await waitForJob(t, id, 'read');
  assert.deepEqual(Object.keys(job).sort(), [
    'attempts',
    'created_at',
    'error',
    'failed_client_ids',
    'failed_count',
    'finished_at',
    'id',
    'next_attempt_at',
    'processed_count',
    'result',
    'skipped_client_ids',
    'skipped_count',
    'started_at',
    'status',
    'total_count',
    'type',
  ]);
  assert.deepEqual(
    { ...job, created_at: '', started_at: '', finished_at: '' },
    {
      id,
      type: 'task_bulk_action',
      status: 'finished',
      total_count: 1,
      processed_count: 1,
      failed_count: 0,
      failed_client_ids: null,
      skipped_count: null,
      skipped_client_ids: null,
      result: null,
      attempts: 1,
      error: null,
      next_attempt_at: null,
      created_at: '',
      started_at: '',
      finished_at: '',
    },
  );
  for (const stamp of [job.created_at, job.started_at, job.finished_at])
    assert.match(stamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test('a queued job reads as queued with nothing recorded yet', async () => {
  const row = await t.db.db
    .insertInto('jobs')
    .values({
      company_id: t.tenant.companyId,
      type: 'task_bulk_action',
      params: '{}',
      total_count: null,
      failed_count: null,
      failed_client_ids: null,
      skipped_count: null,
      skipped_client_ids: null,
      result: null,
      error: null,
      api_key_id: t.tenant.keyIds.admin,
      started_at: null,
      finished_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const res = await t.request('GET', `/jobs/${row.id}`, { key: 'read' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.status, 'queued');
  assert.equal(res.body.data.total_count, null);
  assert.equal(res.body.data.processed_count, 0);
  assert.equal(res.body.data.started_at, null);
});

test("absent and other tenants' jobs are 404; a bad id is 400", async () => {
  const theirs = await startJob('admin', other);
  for (const id of [theirs, 999999]) {
    const res = await t.request('GET', `/jobs/${id}`);
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.equal((await t.request('GET', `/jobs/${theirs}`, { tenant: other })).status, 200);
  const bad = await t.request('GET', '/jobs/abc');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  assert.equal((await t.request('GET', `/jobs/${theirs}`, { key: null })).status, 401);
});

test("a plain member's personal key reads only the jobs it started", async () => {
  const mine = await startJob('personal');
  const admins = await startJob('admin');
  assert.equal((await waitForJob(t, mine, 'personal')).status, 'finished');
  const hidden = await t.request('GET', `/jobs/${admins}`, { key: 'personal' });
  assert.equal(hidden.status, 404);
  assert.equal((await t.request('GET', `/jobs/${admins}`, { key: 'personalAdmin' })).status, 200);
  assert.equal((await t.request('GET', `/jobs/${mine}`, { key: 'personalAdmin' })).status, 200);
});
