import type { Ctx } from '../../platform/context.ts';
import { afterCommit, inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import type { ClaimedJob } from '../../platform/modules.ts';
import { assertReference, liveIds } from '../../platform/references.ts';
import * as jobs from '../jobs/index.ts';
import type { BulkMemberActionBody } from './client-workflow.schemas.ts';
import { endMemberships, ensureMembers } from '../client-members/index.ts';
import { lockVisibleClients, visibleClientIds } from '../clients/index.ts';
import { workingMembers } from '../members/index.ts';

export const BULK_MEMBER_JOB_TYPE = 'client_bulk_member_action';
/** Clients changed per transaction; a failing chunk is counted as failed and the job goes on. */
export const MEMBER_CHUNK = 50;

function checkShape(body: BulkMemberActionBody): void {
  const replace = body.action === 'replace';
  if (replace && body.from_person_id === undefined)
    throw domainValidation('MISSING_FIELD', 'action replace needs from_person_id', { field: 'from_person_id' });
  if (!replace && body.from_person_id !== undefined)
    throw domainValidation('FIELD_NOT_ALLOWED', `from_person_id does not apply to action ${body.action}`, {
      field: 'from_person_id',
    });
  if (body.action === 'remove' && body.workflow_role_id !== undefined)
    throw domainValidation('FIELD_NOT_ALLOWED', 'workflow_role_id does not apply to action remove', {
      field: 'workflow_role_id',
    });
  if (replace && body.from_person_id === body.person_id)
    throw domainValidation('SAME_PERSON', 'from_person_id and person_id name the same person', {
      field: 'from_person_id',
    });
}

/** Body references follow the write rules: foreign or invisible ids are 400 INVALID_<ENTITY>. */
async function checkReferences(ctx: Ctx, body: BulkMemberActionBody): Promise<void> {
  // Removing or replacing someone who has left is the point, so only a person taking work must be working.
  const joining = body.action !== 'remove';
  const working = joining
    ? await workingMembers(ctx, [body.person_id])
    : await liveIds(ctx, 'people', [body.person_id]);
  if (!working.has(body.person_id)) throw invalidReference('person', 'person_id', body.person_id);
  await assertReference(ctx, 'people', 'person', 'from_person_id', body.from_person_id);
  await assertReference(ctx, 'workflow_roles', 'workflow_role', 'workflow_role_id', body.workflow_role_id);
  const visible = new Set(await visibleClientIds(ctx, body.client_ids));
  const missing = body.client_ids.filter((id) => !visible.has(id));
  if (missing.length)
    throw new AppError(
      'INVALID_CLIENT',
      `client_ids names clients that are not clients of this company: ${missing.join(', ')}`,
      {
        field: 'client_ids',
        invalid_ids: missing,
      },
    );
}

/** One chunk in one transaction, on the chunk's clients still live and visible. Fires no events (spec). */
async function applyChunk(ctx: Ctx, ids: number[], body: BulkMemberActionBody): Promise<void> {
  const clients = await lockVisibleClients(ctx, ids);
  if (body.action === 'add') {
    await ensureMembers(ctx, clients, body.person_id, () => body.workflow_role_id);
    return;
  }
  if (body.action === 'remove') {
    await endMemberships(ctx, clients, body.person_id);
    return;
  }
  // replace: only where the replaced person was a member; the newcomer takes its role unless one is given
  // (a replaced member without a role leaves a newcomer who already is a member with the role it has).
  const ended = await endMemberships(ctx, clients, body.from_person_id!);
  const roles = new Map(ended.map((row) => [row.client_id, row.workflow_role_id]));
  const role = (clientId: number) =>
    body.workflow_role_id !== undefined ? body.workflow_role_id : (roles.get(clientId) ?? undefined);
  await ensureMembers(ctx, [...roles.keys()], body.person_id, role);
}

/**
 * The job handler: fixes the target clients at its first start (kept on the job), then works through them
 * with the shared chunk runner. A chunk run twice (two runners racing) changes nothing more: every action is
 * idempotent per client (add finds the membership, remove and replace find the person already gone).
 */
export async function runBulkMemberJob(ctx: Ctx, job: ClaimedJob, signal?: AbortSignal): Promise<void> {
  const body = job.params as BulkMemberActionBody;
  await jobs.runChunkedJob(
    ctx,
    job,
    {
      size: MEMBER_CHUNK,
      select: (tx) => visibleClientIds(tx, body.client_ids),
      step: (tx, ids) => applyChunk(tx, ids, body),
    },
    signal,
  );
}

/** Validates, queues the job and answers with it; the work starts in this process once the request is done. */
export async function startBulkMemberAction(ctx: Ctx, body: BulkMemberActionBody): Promise<jobs.JobRecord> {
  checkShape(body);
  await checkReferences(ctx, body);
  const job = await inTransaction(ctx, async (tx) =>
    jobs.getJob(tx, await jobs.insertJob(tx, BULK_MEMBER_JOB_TYPE, body)),
  );
  // If this start is lost (crash, or the insert not yet visible), a job runner's poll picks the job up.
  afterCommit(ctx, (db) => jobs.kickJob(db, ctx.companyId, job.id, runBulkMemberJob));
  return job;
}
