import type { Ctx } from '../../platform/context.ts';
import { afterCommit, inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import { liveIds } from '../../platform/references.ts';
import type { ClaimedJob } from '../../platform/modules.ts';
import * as jobs from '../jobs/index.ts';
import { BULK_ACTIONS, type BulkActionBody, type BulkFilterBody, type TaskListFilters } from './tasks.schemas.ts';
import { clientSeen } from '../clients/index.ts';
import { visibleProjectRef } from '../projects/index.ts';
import * as repo from './tasks.repository.ts';
import { assertNoTemplateRows, assertWorkClient } from './tasks.templates.ts';

export const BULK_JOB_TYPE = 'task_bulk_action';
/** Rows changed per transaction; a failing chunk is counted as failed and the job goes on. */
const CHUNK = 100;

/** Which of status / assignee_id / mode each action needs; the others must be absent. */
const NEEDS: Record<(typeof BULK_ACTIONS)[number], ReadonlyArray<'status' | 'assignee_id' | 'mode'>> = {
  status: ['status'],
  assignee: ['assignee_id', 'mode'],
  delete: [],
};

function checkShape(body: BulkActionBody): void {
  const needed: readonly string[] = NEEDS[body.action];
  for (const field of ['status', 'assignee_id', 'mode'] as const) {
    if (needed.includes(field) && body[field] === undefined) {
      throw domainValidation('MISSING_FIELD', `action ${body.action} needs ${field}`, { field });
    }
    if (!needed.includes(field) && body[field] !== undefined) {
      throw domainValidation('FIELD_NOT_ALLOWED', `${field} does not apply to action ${body.action}`, { field });
    }
  }
}

async function checkPerson(ctx: Ctx, field: string, id: number | undefined): Promise<void> {
  if (id !== undefined && !(await liveIds(ctx, 'people', [id])).has(id)) throw invalidReference('person', field, id);
}

/** Body references follow the write rules: invisible or foreign ids are 400 INVALID_<ENTITY>, not an empty selection. */
async function checkReferences(ctx: Ctx, body: BulkActionBody): Promise<void> {
  const { filter } = body;
  if (filter.client_id !== undefined && !(await clientSeen(ctx, filter.client_id)))
    throw invalidReference('client', 'filter.client_id', filter.client_id);
  await assertWorkClient(ctx, filter.client_id, 'filter.client_id');
  if (filter.project_id !== undefined && !(await visibleProjectRef(ctx, filter.project_id)))
    throw invalidReference('project', 'filter.project_id', filter.project_id);
  await checkPerson(ctx, 'filter.assignee_id', filter.assignee_id);
  await checkPerson(ctx, 'assignee_id', body.assignee_id);
  if (filter.ids) {
    const found = new Set(await repo.selectTaskIds(ctx, {}, filter.ids));
    const missing = filter.ids.filter((id) => !found.has(id));
    if (missing.length) {
      throw new AppError(
        'INVALID_TASK',
        `filter.ids names tasks that are not tasks of this company: ${missing.join(', ')}`,
        { field: 'filter.ids', invalid_ids: missing },
      );
    }
    await assertNoTemplateRows(ctx, filter.ids);
  }
}

const filtersOf = (filter: BulkFilterBody): TaskListFilters => ({
  status: filter.status?.join(','),
  client_id: filter.client_id,
  project_id: filter.project_id,
  assignee_id: filter.assignee_id,
});

/** One chunk in one transaction. Bulk actions fire no events (the spec's rule for bulk write paths). */
async function applyChunk(ctx: Ctx, ids: number[], body: BulkActionBody): Promise<void> {
  if (body.action === 'status') {
    await repo.setStatus(ctx, ids, body.status!);
    return;
  }
  if (body.action === 'delete') {
    await repo.softDeleteTasks(ctx, ids);
    return;
  }
  const person = body.assignee_id!;
  if (body.mode !== 'add') await repo.removeAssignee(ctx, ids, body.mode === 'remove' ? person : undefined);
  if (body.mode !== 'remove') await repo.addAssignee(ctx, ids, [person]);
  await repo.touchTasks(ctx, ids);
}

/**
 * The job handler: selects the tasks the actor may see once (kept on the job), then changes them chunk
 * by chunk (the shared runner: each chunk commits with its progress, so a resumed job carries on after its
 * last committed chunk); should a chunk ever run twice, status, assignee and delete are idempotent per task.
 */
export async function runBulkJob(ctx: Ctx, job: ClaimedJob, signal?: AbortSignal): Promise<void> {
  const body = job.params as BulkActionBody;
  await jobs.runChunkedJob(
    ctx,
    job,
    {
      size: CHUNK,
      select: (tx) => repo.selectTaskIds(tx, filtersOf(body.filter), body.filter.ids),
      step: (tx, ids) => applyChunk(tx, ids, body),
    },
    signal,
  );
}

/** Validates, queues the job and answers with it; the work starts in this process once the request is done. */
export async function startBulkAction(ctx: Ctx, body: BulkActionBody): Promise<jobs.JobRecord> {
  checkShape(body);
  await checkReferences(ctx, body);
  const job = await inTransaction(ctx, async (tx) => jobs.getJob(tx, await jobs.insertJob(tx, BULK_JOB_TYPE, body)));
  // If this start is lost (crash, or the insert not yet visible), a job runner's poll picks the job up.
  afterCommit(ctx, (db) => jobs.kickJob(db, ctx.companyId, job.id, runBulkJob));
  return job;
}
