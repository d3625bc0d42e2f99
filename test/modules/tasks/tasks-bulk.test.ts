import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import {
  createClient,
  createTask,
  insertProject,
  insertTaskRow,
  storedAssignees,
  storedTask,
  waitForJob,
} from './fixtures.ts';
import { runBulkJob } from '../../../src/modules/tasks/tasks.bulk.ts';
import { kickJob } from '../../../src/modules/jobs/jobs.runner.ts';
import { insertJob } from '../../../src/modules/jobs/jobs.repository.ts';
import type { Ctx } from '../../../src/platform/context.ts';

const t = await createTestApp();
const other = await t.newTenant();

const eventCount = async () =>
  (await t.db.db.selectFrom('events').select('id').where('company_id', '=', t.tenant.companyId).execute()).length;
const bulk = (body: unknown, key = 'write', headers?: Record<string, string>) =>
  t.request('POST', '/tasks/bulk-action', { body, key, headers });

test('a status bulk action runs as a background job, honours the list fence and fires no events', async () => {
  const client = await createClient(t, { name: 'Bulk status' });
  const tasks = [
    await createTask(t, { client_id: client, status: 'new' }),
    await createTask(t, { client_id: client, status: 'in_progress' }),
    await createTask(t, { client_id: client, status: 'new', type: 'request' }),
  ];
  const untouched = await createTask(t, { client_id: client, status: 'inactive' });
  const timer = await insertTaskRow(t, { type: 'button', client_id: client });
  const template = await insertTaskRow(t, { template_kind: 'workflow_template', client_id: client });
  const events = await eventCount();

  const res = await bulk({
    action: 'status',
    status: 'finished',
    filter: { client_id: client, status: ['new', 'in_progress'] },
  });
  assert.equal(res.status, 202, res.text);
  const queued = res.body.data;
  assert.deepEqual(Object.keys(queued).sort(), [
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
  assert.equal(queued.type, 'task_bulk_action');
  assert.equal(queued.status, 'queued');
  const job = await waitForJob(t, queued.id);
  assert.equal(job.status, 'finished');
  assert.equal(job.total_count, 3);
  assert.equal(job.processed_count, 3);
  assert.equal(job.failed_count, 0);
  assert.equal(job.skipped_count, null);
  assert.equal(job.skipped_client_ids, null);
  assert.equal(job.failed_client_ids, null);
  assert.ok(job.started_at >= job.created_at && job.finished_at >= job.started_at);
  for (const task of tasks) {
    const row = await storedTask(t, task.id);
    assert.equal(row.status, 'finished');
    assert.notEqual(row.finished_at, null);
  }
  assert.equal((await storedTask(t, tasks[1]!.id)).reopen_status, 'in_progress');
  assert.equal((await storedTask(t, untouched.id)).status, 'inactive');
  assert.equal((await storedTask(t, timer)).status, 'new', 'timer rows are outside the list fence');
  assert.equal((await storedTask(t, template)).status, 'new', 'template rows are outside the list fence');
  assert.equal(await eventCount(), events, 'bulk actions fire no webhook events');
  const stored = await t.db.db
    .selectFrom('jobs')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', queued.id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.api_key_id, t.tenant.keyIds.write);
  assert.deepEqual(stored.params, {
    action: 'status',
    status: 'finished',
    filter: { client_id: client, status: ['new', 'in_progress'] },
  });
});

test('assignee bulk actions add, remove and replace; explicit ids reach any row', async () => {
  const owner = t.tenant.ownerPersonId;
  const member = t.tenant.memberPersonId;
  const a = await createTask(t, { assignees: [owner] });
  const b = await createTask(t, { assignees: [] });
  const timer = await insertTaskRow(t, { type: 'button' });
  const ids = [a.id, b.id, timer];
  const events = await eventCount();
  const run = async (body: Record<string, unknown>) => {
    const res = await bulk({ action: 'assignee', filter: { ids }, ...body });
    assert.equal(res.status, 202, res.text);
    return waitForJob(t, res.body.data.id);
  };
  assert.equal((await run({ assignee_id: member, mode: 'add' })).total_count, 3);
  assert.deepEqual(
    await storedAssignees(t, a.id),
    [owner, member].sort((x, y) => x - y),
  );
  assert.deepEqual(await storedAssignees(t, timer), [member]);
  await run({ assignee_id: owner, mode: 'remove' });
  assert.deepEqual(await storedAssignees(t, a.id), [member]);
  await run({ assignee_id: owner, mode: 'replace' });
  for (const id of ids) assert.deepEqual(await storedAssignees(t, id), [owner]);
  assert.ok((await storedTask(t, b.id)).updated_at > b.updated_at);
  assert.equal(await eventCount(), events);
});

test('a delete bulk action soft-deletes the selection', async () => {
  const project = await insertProject(t, null);
  const doomed = [await createTask(t, { project_id: project }), await createTask(t, { project_id: project })];
  const kept = await createTask(t);
  const events = await eventCount();
  const res = await bulk({ action: 'delete', filter: { project_id: project } });
  assert.equal(res.status, 202, res.text);
  const job = await waitForJob(t, res.body.data.id);
  assert.equal(job.processed_count, 2);
  for (const task of doomed) {
    assert.notEqual((await storedTask(t, task.id)).deleted_at, null);
    assert.equal((await t.request('GET', `/tasks/${task.id}`)).status, 404);
  }
  assert.equal((await storedTask(t, kept.id)).deleted_at, null);
  assert.equal(await eventCount(), events);
  const empty = await bulk({ action: 'delete', filter: { project_id: project } });
  const done = await waitForJob(t, empty.body.data.id);
  assert.deepEqual([done.status, done.total_count, done.processed_count], ['finished', 0, 0]);
});

test('bad bulk bodies are refused before any job is queued', async () => {
  const jobsBefore = (
    await t.db.db.selectFrom('jobs').select('id').where('company_id', '=', t.tenant.companyId).execute()
  ).length;
  const task = await createTask(t);
  const theirs = await createTask(t, {}, { tenant: other });
  const foreignClient = await createClient(t, {}, other);
  const foreignProject = await insertProject(t, null, other);
  const cases: Array<[unknown, string, string?]> = [
    [{ action: 'status', status: 'finished' }, 'VALIDATION_ERROR'],
    [{ action: 'status', status: 'finished', filter: {} }, 'VALIDATION_ERROR'],
    [{ action: 'archive', filter: { ids: [task.id] } }, 'VALIDATION_ERROR'],
    [{ action: 'status', status: 'done', filter: { ids: [task.id] } }, 'VALIDATION_ERROR'],
    [{ action: 'status', status: 'finished', filter: { status: ['done'] } }, 'VALIDATION_ERROR'],
    [{ action: 'status', status: 'finished', filter: { ids: [task.id], title: 'x' } }, 'VALIDATION_ERROR'],
    [{ action: 'status', status: 'finished', filter: { ids: [] } }, 'VALIDATION_ERROR'],
    [
      { action: 'status', status: 'finished', filter: { ids: Array.from({ length: 1001 }, (_, i) => i + 1) } },
      'VALIDATION_ERROR',
    ],
    [{ action: 'status', filter: { ids: [task.id] } }, 'VALIDATION_ERROR', 'MISSING_FIELD'],
    [
      { action: 'status', status: 'new', mode: 'add', filter: { ids: [task.id] } },
      'VALIDATION_ERROR',
      'FIELD_NOT_ALLOWED',
    ],
    [
      { action: 'assignee', assignee_id: t.tenant.ownerPersonId, filter: { ids: [task.id] } },
      'VALIDATION_ERROR',
      'MISSING_FIELD',
    ],
    [
      { action: 'assignee', assignee_id: t.tenant.ownerPersonId, mode: 'swap', filter: { ids: [task.id] } },
      'VALIDATION_ERROR',
    ],
    [{ action: 'delete', status: 'new', filter: { ids: [task.id] } }, 'VALIDATION_ERROR', 'FIELD_NOT_ALLOWED'],
    [{ action: 'delete', filter: { ids: [task.id, theirs.id] } }, 'INVALID_TASK'],
    [{ action: 'delete', filter: { client_id: foreignClient } }, 'INVALID_CLIENT'],
    [{ action: 'delete', filter: { project_id: foreignProject } }, 'INVALID_PROJECT'],
    [{ action: 'delete', filter: { assignee_id: other.ownerPersonId } }, 'INVALID_PERSON'],
    [
      { action: 'assignee', assignee_id: other.memberPersonId, mode: 'add', filter: { ids: [task.id] } },
      'INVALID_PERSON',
    ],
  ];
  for (const [body, code, reason] of cases) {
    const res = await bulk(body);
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 120)}: ${res.text}`);
    assert.equal(res.body.error.code, code);
    if (reason) assert.equal(res.body.error.details.reason, reason);
  }
  const invalidTask = await bulk({ action: 'delete', filter: { ids: [task.id, theirs.id] } });
  assert.deepEqual(invalidTask.body.error.details.invalid_ids, [theirs.id]);
  const readOnly = await bulk({ action: 'delete', filter: { ids: [task.id] } }, 'read');
  assert.equal(readOnly.status, 403);
  assert.equal(
    (await t.db.db.selectFrom('jobs').select('id').where('company_id', '=', t.tenant.companyId).execute()).length,
    jobsBefore,
  );
  assert.equal((await storedTask(t, task.id)).deleted_at, null);
});

test("a plain member's bulk action only reaches tasks they see", async () => {
  const mine = await createClient(t, { name: 'Member bulk', default_person_id: t.tenant.memberPersonId });
  const foreign = await createClient(t, { name: "Not the member's" });
  const visible = await createTask(t, { client_id: mine, status: 'inactive' });
  const assigned = await createTask(t, {
    client_id: foreign,
    status: 'inactive',
    assignees: [t.tenant.memberPersonId],
  });
  const hidden = await createTask(t, { client_id: foreign, status: 'inactive' });
  const res = await bulk({ action: 'status', status: 'archived', filter: { status: ['inactive'] } }, 'personal');
  assert.equal(res.status, 202, res.text);
  const job = await waitForJob(t, res.body.data.id, 'personal');
  assert.equal(job.total_count, 2);
  assert.equal((await storedTask(t, visible.id)).status, 'archived');
  assert.equal((await storedTask(t, assigned.id)).status, 'archived');
  assert.equal((await storedTask(t, hidden.id)).status, 'inactive');
  const byIds = await bulk({ action: 'delete', filter: { ids: [hidden.id] } }, 'personal');
  assert.equal(byIds.status, 400);
  assert.equal(byIds.body.error.code, 'INVALID_TASK');
  const byClient = await bulk({ action: 'delete', filter: { client_id: foreign } }, 'personal');
  assert.equal(byClient.status, 400);
  assert.equal(byClient.body.error.code, 'INVALID_CLIENT');
  const owner = await bulk({ action: 'delete', filter: { ids: [hidden.id] } }, 'personalAdmin');
  assert.equal(owner.status, 202);
  await waitForJob(t, owner.body.data.id, 'personalAdmin');
  assert.notEqual((await storedTask(t, hidden.id)).deleted_at, null);
});

test('the bulk action accepts an Idempotency-Key: a retry replays the same job', async () => {
  const task = await createTask(t, { status: 'new' });
  const headers = { 'idempotency-key': 'bulk-1' };
  const body = { action: 'status', status: 'in_progress', filter: { ids: [task.id] } };
  const first = await bulk(body, 'write', headers);
  assert.equal(first.status, 202, first.text);
  const second = await bulk(body, 'write', headers);
  assert.equal(second.status, 202);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(second.body, first.body);
  await waitForJob(t, first.body.data.id);
  const jobs = await t.db.db
    .selectFrom('jobs')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('params', '@>', JSON.stringify({ filter: { ids: [task.id] } }) as never)
    .execute();
  assert.equal(jobs.length, 1);
  assert.equal((await storedTask(t, task.id)).status, 'in_progress');
});

/** The runner as the request would hand it over, for provoking failures the API's validation keeps out. */
const ownerCtx = (): Ctx => ({
  db: t.db.db,
  companyId: t.tenant.companyId,
  requestId: 'test',
  company: {
    id: t.tenant.companyId,
    name: 'Test Co',
    timezone: 'UTC',
    currency: 'EUR',
    subscription_status: 'active',
    plan: 'pro',
    features: {},
  },
  key: {
    id: t.tenant.keyIds.admin,
    kind: 'integration',
    scopes: ['read', 'write', 'admin'],
    personId: t.tenant.ownerPersonId,
  },
  actor: { personId: t.tenant.ownerPersonId, role: 'owner', restricted: false },
});

test('a failing chunk is counted in failed_count and the job still finishes; a failing job is marked failed', async () => {
  const ctx = ownerCtx();
  const tasks = [await createTask(t), await createTask(t)];
  const body = {
    action: 'assignee',
    assignee_id: 999_999,
    mode: 'add',
    filter: { ids: tasks.map((task) => task.id) },
  } as const;
  const chunkFails = await insertJob(ctx, 'task_bulk_action', body);
  await kickJob(ctx.db, ctx.companyId, chunkFails, runBulkJob);
  const partial = await waitForJob(t, chunkFails);
  assert.deepEqual(
    [partial.status, partial.total_count, partial.processed_count, partial.failed_count],
    ['finished', 2, 2, 2],
  );
  for (const task of tasks) assert.deepEqual(await storedAssignees(t, task.id), []);

  const broken = { action: 'delete', filter: { client_id: 'not a number' } };
  const jobFails = await insertJob(ctx, 'task_bulk_action', broken);
  await kickJob(ctx.db, ctx.companyId, jobFails, runBulkJob);
  const failed = await waitForJob(t, jobFails);
  assert.equal(failed.status, 'failed');
  assert.notEqual(failed.finished_at, null);
  const row = await t.db.db
    .selectFrom('jobs')
    .select('error')
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', jobFails)
    .executeTakeFirstOrThrow();
  assert.ok(row.error && row.error.length > 0);
});
