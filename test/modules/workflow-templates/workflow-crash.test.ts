import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';
import { runJobsOnce } from '../../../src/modules/jobs/index.ts';
import { claimQueued, LostClaim, Released, runClaimed } from '../../../src/modules/jobs/index.ts';
import { loadModules } from '../../../src/modules/index.ts';
import { workflowJob } from '../../../src/modules/workflow-templates/workflows.jobs.ts';
import type { JobHandler } from '../../../src/platform/modules.ts';
import { addMaster, createTemplate, events, insertClients, liveTasks } from './fixtures.ts';

const t = await createTestApp();
const P = '/project-workflows';

async function queueApply(templateId: number, clientIds: number[]): Promise<number> {
  const row = await t.db.db
    .insertInto('jobs')
    .values({
      company_id: t.tenant.companyId,
      type: 'project_workflow_apply',
      params: JSON.stringify({ template_id: templateId, client_ids: clientIds }),
      api_key_id: t.tenant.keyIds.admin,
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

/**
 * The apply handler in a process that dies once its first chunk has committed: it stops between chunks and
 * leaves the row as a killed process would (running, progress of one chunk, no release). LostClaim is how
 * runClaimed is told to leave the row alone.
 */
const dyingAfterOneChunk: JobHandler = async (ctx, job) => {
  let checks = 0;
  const signal = {
    get aborted() {
      return ++checks > 1;
    },
  } as AbortSignal;
  try {
    await workflowJob('project_workflow', 'apply')(ctx, job, signal);
  } catch (error) {
    if (error instanceof Released) throw new LostClaim('the process died');
    throw error;
  }
};

async function setUp(count: number) {
  const workflow = await createTemplate(t, P, { name: `Crash ${count}` });
  for (const title of ['One', 'Two', 'Three']) await addMaster(t, `${P}/${workflow.id}`, { title });
  return { workflow, clients: await insertClients(t, count) };
}

async function assertAppliedOnce(workflowId: number, clients: number[]) {
  const tasks = await liveTasks(t, clients);
  assert.equal(tasks.length, clients.length * 3, 'every client has each master once');
  const projects = await t.db.db
    .selectFrom('projects')
    .select('client_id')
    .where('company_id', '=', t.tenant.companyId)
    .where('client_id', 'in', clients)
    .execute();
  assert.equal(projects.length, clients.length, 'one project per client');
  const apps = await t.db.db
    .selectFrom('workflow_applications')
    .select('client_id')
    .where('company_id', '=', t.tenant.companyId)
    .where('template_id', '=', workflowId)
    .execute();
  assert.equal(apps.length, clients.length);
  return tasks;
}

test('a worker killed mid-apply leaves committed chunks; the job resumes after them and applies no client twice', async () => {
  const { workflow, clients } = await setUp(60);
  const id = await queueApply(workflow.id, clients);
  const eventsBefore = (await events(t)).length;
  const job = (await claimQueued(t.db.db, t.tenant.companyId, id))!;
  await runClaimed(t.db.db, job, dyingAfterOneChunk);

  const dead = await storedJob(id);
  assert.deepEqual([dead.status, dead.total_count, dead.processed_count], ['running', 60, 25]);
  assert.equal((await liveTasks(t, clients)).length, 25 * 3, 'the first chunk committed with its progress');

  // Its heartbeat goes stale: any runner takes the job over.
  await t.db.db
    .updateTable('jobs')
    .set({ heartbeat_at: sql<string>`now() - interval '5 minutes'` })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .execute();
  assert.ok((await runJobsOnce(t.db.db, loadModules().jobs)).includes(id));
  const done = await storedJob(id);
  assert.deepEqual(
    [done.status, done.processed_count, done.failed_count, done.failed_client_ids, done.attempts],
    ['finished', 60, 0, [], 2],
  );
  assert.deepEqual([done.skipped_count, done.skipped_client_ids], [0, []], 'the resumed run did not redo chunk one');
  const tasks = await assertAppliedOnce(workflow.id, clients);
  const created = (await events(t, 'task.created')).slice(-tasks.length);
  assert.deepEqual(created.map((e) => e.record_id).sort(), tasks.map((x) => x.id).sort());
  assert.equal((await events(t)).length - eventsBefore, 60 * 3 + 60, 'one event per task and project, none twice');
});

test('a chunk run again (its progress lost) skips the clients it already applied', async () => {
  const { workflow, clients } = await setUp(30);
  const id = await queueApply(workflow.id, clients);
  const job = (await claimQueued(t.db.db, t.tenant.companyId, id))!;
  await runClaimed(t.db.db, job, dyingAfterOneChunk);
  // As if the first chunk's progress had never been recorded: the resumed job starts over.
  await t.db.db
    .updateTable('jobs')
    .set({ processed_count: 0, heartbeat_at: sql<string>`now() - interval '5 minutes'` })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .execute();
  assert.ok((await runJobsOnce(t.db.db, loadModules().jobs)).includes(id));
  const done = await storedJob(id);
  assert.deepEqual([done.status, done.processed_count, done.failed_count], ['finished', 30, 0]);
  assert.deepEqual([done.skipped_count, done.skipped_client_ids], [25, clients.slice(0, 25)]);
  await assertAppliedOnce(workflow.id, clients);
});
