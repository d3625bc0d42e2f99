import type { Ctx } from '../../platform/context.ts';
import { localToday } from '../../platform/dates.ts';
import type { ClaimedJob, JobHandler } from '../../platform/modules.ts';
import { inGroupSql } from '../client-groups/index.ts';
import { matchingCustomerIds, visibleCustomerIds } from '../clients/index.ts';
import * as jobs from '../jobs/index.ts';
import * as instances from './instances.repository.ts';
import { projectsCreated, taskEvents } from './workflows.events.ts';
import * as repo from './workflows.repository.ts';
import type { ApplyInput, WorkflowKind } from './workflows.schemas.ts';

export type Operation = 'apply' | 'push';
export const JOB_TYPES: Record<WorkflowKind, Record<Operation, string>> = {
  workflow_template: { apply: 'workflow_template_apply', push: 'workflow_template_push' },
  project_workflow: { apply: 'project_workflow_apply', push: 'project_workflow_push' },
};

/** What the job row keeps of the request (params). */
export type JobParams = ApplyInput & { template_id: number };

/** Clients per transaction: a chunk's tasks, links, events and progress commit together. */
const CHUNK = 25;

/** Only the project-workflow apply job records which clients failed and were skipped (the spec's job row). */
const recordsClients = (kind: WorkflowKind, op: Operation) => kind === 'project_workflow' && op === 'apply';

type Outcome = jobs.ChunkOutcome;

/** The clients an apply names: the given ids as they are (one gone by now fails), or the filter's live clients. */
async function applyTargets(ctx: Ctx, params: JobParams): Promise<number[]> {
  if (params.client_ids) return [...params.client_ids].sort((a, b) => a - b);
  const filter = params.filter ?? {};
  return matchingCustomerIds(ctx, filter, filter.group_id === undefined ? undefined : inGroupSql('c', filter.group_id));
}

async function lockedTemplate(ctx: Ctx, kind: WorkflowKind, id: number) {
  const template = await repo.lockTemplate(ctx, kind, id);
  if (!template) throw new jobs.JobFailed('the template was deleted while the job ran');
  return template;
}

async function applyChunk(ctx: Ctx, kind: WorkflowKind, job: ClaimedJob, ids: number[]): Promise<Outcome> {
  const params = job.params as JobParams;
  const template = await lockedTemplate(ctx, kind, params.template_id);
  const usable = await visibleCustomerIds(ctx, ids);
  if (params.replace) await instances.teardownOthers(ctx, kind, template.id, usable);
  const applied = await instances.claimApplications(ctx, template.id, usable, job.id);
  if (kind === 'project_workflow') await projectsCreated(ctx, await instances.createProjects(ctx, template, applied));
  const today = localToday(ctx.company.timezone);
  await taskEvents(ctx, 'created', await instances.createInstances(ctx, template.id, applied, today));
  const set = (xs: number[]) => new Set(xs);
  const [usableSet, appliedSet] = [set(usable), set(applied)];
  return {
    failed: ids.filter((id) => !usableSet.has(id)),
    skipped: usable.filter((id) => !appliedSet.has(id)),
  };
}

/**
 * Push: new masters become instances, changed masters refresh open instances, deleted ones drop untouched
 * instances. The drop fires nothing: it is a workflow-template task delete (Events, "write paths that fire nothing").
 */
async function pushChunk(ctx: Ctx, kind: WorkflowKind, job: ClaimedJob, ids: number[]): Promise<Outcome> {
  const template = await lockedTemplate(ctx, kind, (job.params as JobParams).template_id);
  const today = localToday(ctx.company.timezone);
  await taskEvents(ctx, 'created', await instances.createInstances(ctx, template.id, ids, today));
  await taskEvents(ctx, 'updated', await instances.refreshInstances(ctx, template.id, ids));
  await instances.dropOrphanedInstances(ctx, template.id, ids);
  return { failed: [], skipped: [] };
}

async function selectTargets(ctx: Ctx, kind: WorkflowKind, op: Operation, job: ClaimedJob): Promise<number[]> {
  const params = job.params as JobParams;
  if (op === 'apply') return applyTargets(ctx, params);
  return instances.appliedClients(ctx, params.template_id, params.client_ids);
}

/**
 * The handler of one engine's apply or push job, on the shared chunk runner: the selection is fixed on the
 * job row at its first start, and a chunk's work and its progress commit together, so a job resumed after
 * its process died carries on after the last committed chunk; the applications' primary key makes even a
 * chunk run twice skip the clients it already applied.
 */
export function workflowJob(kind: WorkflowKind, op: Operation): JobHandler {
  const step = op === 'apply' ? applyChunk : pushChunk;
  return (ctx, job, signal) =>
    jobs.runChunkedJob(
      ctx,
      job,
      {
        size: CHUNK,
        select: (tx) => selectTargets(tx, kind, op, job),
        step: (tx, ids) => step(tx, kind, job, ids),
        ...(recordsClients(kind, op)
          ? { record: (tx: Ctx, outcome: Outcome) => jobs.recordClientOutcome(tx, job.id, outcome) }
          : {}),
      },
      signal,
    );
}
