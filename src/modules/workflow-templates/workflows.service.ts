import type { Ctx } from '../../platform/context.ts';
import { afterCommit, inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertReference, assertReferenceList, liveIds } from '../../platform/references.ts';
import { deletePlanClient, insertPlanClient, renamePlanClient, visibleCustomerIds } from '../clients/index.ts';
import * as jobs from '../jobs/index.ts';
import { JOB_TYPES, workflowJob, type JobParams, type Operation } from './workflows.jobs.ts';
import * as repo from './workflows.repository.ts';
import type {
  ApplyInput,
  MasterListParams,
  MasterTaskInput,
  MasterTaskRecord,
  PushInput,
  TemplateInput,
  TemplateListParams,
  TemplateRecord,
  WorkflowKind,
} from './workflows.schemas.ts';

const WHAT: Record<WorkflowKind, string> = {
  workflow_template: 'Workflow template',
  project_workflow: 'Project workflow',
};

export const listTemplates = (ctx: Ctx, kind: WorkflowKind, params: TemplateListParams) =>
  repo.listTemplates(ctx, kind, params);

export async function getTemplate(ctx: Ctx, kind: WorkflowKind, id: number): Promise<TemplateRecord> {
  return orNotFound(await repo.findTemplate(ctx, kind, id), WHAT[kind]);
}

async function lock(ctx: Ctx, kind: WorkflowKind, id: number): Promise<repo.LockedTemplate> {
  return orNotFound(await repo.lockTemplate(ctx, kind, id), WHAT[kind]);
}

/**
 * A workflow template gets its template (plan) client, the client its master rows hang off; a project
 * workflow names the project type its applies create. Templates are configuration: no webhook events.
 */
export async function createTemplate(ctx: Ctx, kind: WorkflowKind, body: TemplateInput & { name: string }) {
  return inTransaction(ctx, async (tx) => {
    await assertReference(tx, 'project_types', 'project_type', 'project_type_id', body.project_type_id);
    const id = await repo.templates.insert(tx, {
      kind,
      name: body.name,
      description: body.description ?? '',
      plan_client_id: kind === 'workflow_template' ? await insertPlanClient(tx, body.name) : null,
      project_type_id: kind === 'project_workflow' ? body.project_type_id! : null,
    });
    return getTemplate(tx, kind, id);
  });
}

export async function updateTemplate(ctx: Ctx, kind: WorkflowKind, id: number, body: TemplateInput) {
  return inTransaction(ctx, async (tx) => {
    const template = await lock(tx, kind, id);
    if (Object.keys(body).length === 0) return getTemplate(tx, kind, id);
    await assertReference(tx, 'project_types', 'project_type', 'project_type_id', body.project_type_id);
    await repo.templates.update(tx, id, body);
    if (body.name !== undefined && template.plan_client_id !== null)
      await renamePlanClient(tx, template.plan_client_id, body.name);
    return getTemplate(tx, kind, id);
  });
}

/** The template, its master rows and its plan client go; tasks already applied stay as ordinary live work. */
export async function deleteTemplate(ctx: Ctx, kind: WorkflowKind, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const template = await lock(tx, kind, id);
    await repo.deleteMasters(tx, await repo.liveMasterIds(tx, id));
    await repo.templates.softDelete(tx, id);
    if (template.plan_client_id !== null) await deletePlanClient(tx, template.plan_client_id);
  });
}

// ---- master tasks --------------------------------------------------------------------------------------------

export async function listMasterTasks(ctx: Ctx, kind: WorkflowKind, id: number, params: MasterListParams) {
  await getTemplate(ctx, kind, id);
  return repo.listMasters(ctx, id, params);
}

async function checkMasterReferences(ctx: Ctx, body: MasterTaskInput): Promise<void> {
  await assertReferenceList(ctx, 'topics', 'INVALID_TOPIC', 'topic_id', body.topic_id != null ? [body.topic_id] : []);
  const roles = body.workflow_role_ids ?? [];
  const found = await liveIds(ctx, 'workflow_roles', roles);
  const missing = roles.filter((r) => !found.has(r));
  if (missing.length)
    throw domainValidation(
      'INVALID_WORKFLOW_ROLE',
      `workflow_role_ids contains ids that are not workflow roles of this company: ${missing.join(', ')}`,
      { field: 'workflow_role_ids', invalid_ids: missing },
    );
}

/** Master rows are template configuration, not live work: writing them fires no task events. */
export async function addMasterTask(
  ctx: Ctx,
  kind: WorkflowKind,
  id: number,
  body: MasterTaskInput & { title: string },
): Promise<MasterTaskRecord> {
  return inTransaction(ctx, async (tx) => {
    const template = await lock(tx, kind, id);
    await checkMasterReferences(tx, body);
    const taskId = await repo.insertMaster(tx, template, body);
    return (await repo.findMaster(tx, id, taskId))!;
  });
}

async function lockMaster(ctx: Ctx, kind: WorkflowKind, id: number, taskId: number) {
  await lock(ctx, kind, id);
  return orNotFound(await repo.findMaster(ctx, id, taskId), 'Master task');
}

export async function updateMasterTask(
  ctx: Ctx,
  kind: WorkflowKind,
  id: number,
  taskId: number,
  body: MasterTaskInput,
): Promise<MasterTaskRecord> {
  return inTransaction(ctx, async (tx) => {
    const current = await lockMaster(tx, kind, id, taskId);
    if (Object.keys(body).length === 0) return current;
    await checkMasterReferences(tx, body);
    await repo.updateMaster(tx, taskId, body);
    return (await repo.findMaster(tx, id, taskId))!;
  });
}

/** The spec's rule: workflow-template task deletes fire no events. Instances go at the next push. */
export async function deleteMasterTask(ctx: Ctx, kind: WorkflowKind, id: number, taskId: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await lockMaster(tx, kind, id, taskId);
    await repo.deleteMasters(tx, [taskId]);
  });
}

// ---- apply and push ------------------------------------------------------------------------------------------

function checkSelection(body: ApplyInput): void {
  if (body.client_ids === undefined && body.filter === undefined)
    throw domainValidation('MISSING_FIELD', 'Name the clients: client_ids or filter', { field: 'client_ids' });
  if (body.client_ids !== undefined && body.filter !== undefined)
    throw domainValidation('FIELD_NOT_ALLOWED', 'Send client_ids or filter, not both', { field: 'filter' });
}

/** Named clients must be live, non-template clients the caller sees (else 400 INVALID_CLIENT, nothing queued). */
async function checkClients(ctx: Ctx, body: ApplyInput): Promise<void> {
  if (body.client_ids) {
    const usable = new Set(await visibleCustomerIds(ctx, body.client_ids));
    const missing = body.client_ids.filter((id) => !usable.has(id));
    if (missing.length)
      throw new AppError(
        'INVALID_CLIENT',
        `client_ids names clients that cannot take a workflow: ${missing.join(', ')}`,
        {
          field: 'client_ids',
          invalid_ids: missing,
        },
      );
  }
  const group = body.filter?.group_id;
  if (group !== undefined && !(await liveIds(ctx, 'client_groups', [group])).has(group))
    throw domainValidation('INVALID_GROUP', `filter.group_id ${group} is not a client group of this company`, {
      field: 'filter.group_id',
      value: group,
    });
}

async function queue(ctx: Ctx, kind: WorkflowKind, op: Operation, params: JobParams): Promise<jobs.JobRecord> {
  const type = JOB_TYPES[kind][op];
  const job = await inTransaction(ctx, async (tx) => {
    await lock(tx, kind, params.template_id);
    return jobs.getJob(tx, await jobs.insertJob(tx, type, params));
  });
  // If this start is lost (crash), a job runner's poll picks the job up.
  afterCommit(ctx, (db) => jobs.kickJob(db, ctx.companyId, job.id, workflowJob(kind, op)));
  return job;
}

export async function startApply(ctx: Ctx, kind: WorkflowKind, id: number, body: ApplyInput) {
  await getTemplate(ctx, kind, id);
  checkSelection(body);
  await checkClients(ctx, body);
  return queue(ctx, kind, 'apply', { ...body, template_id: id });
}

export async function startPush(ctx: Ctx, kind: WorkflowKind, id: number, body: PushInput) {
  await getTemplate(ctx, kind, id);
  return queue(ctx, kind, 'push', { ...body, template_id: id });
}
