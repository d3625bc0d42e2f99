import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { MAX_SORT_ORDER, type WorkflowRoleCreateBody, type WorkflowRoleRecord, type WorkflowRoleUpdateBody } from './workflow-roles.schemas.ts';
import * as repo from './workflow-roles.repository.ts';

export const listWorkflowRoles = (ctx: Ctx, params: object) => repo.listWorkflowRoles(ctx, params);

export async function getWorkflowRole(ctx: Ctx, id: number): Promise<WorkflowRoleRecord> {
  const role = await repo.findWorkflowRole(ctx, id);
  if (!role) throw notFound('Workflow role');
  return role;
}

export async function createWorkflowRole(ctx: Ctx, body: WorkflowRoleCreateBody): Promise<WorkflowRoleRecord> {
  return inTransaction(ctx, async (tx) => {
    const sortOrder = body.sort_order ?? (await repo.nextSortOrder(tx, MAX_SORT_ORDER));
    const id = await repo.insertWorkflowRole(tx, { name: body.name, color: body.color ?? null, sort_order: sortOrder });
    return getWorkflowRole(tx, id);
  });
}

export async function updateWorkflowRole(ctx: Ctx, id: number, body: WorkflowRoleUpdateBody): Promise<WorkflowRoleRecord> {
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.lockWorkflowRole(tx, id))) throw notFound('Workflow role');
    if (Object.keys(body).length === 0) return getWorkflowRole(tx, id);
    await repo.updateWorkflowRole(tx, id, body);
    return getWorkflowRole(tx, id);
  });
}

/** Refused with 409 ROLE_IN_USE while an unfinished task or a client member still holds the role. */
export async function deleteWorkflowRole(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.lockWorkflowRole(tx, id))) throw notFound('Workflow role');
    const refs = await repo.countReferences(tx, id);
    if (refs.tasks > 0 || refs.client_members > 0) {
      throw conflict('ROLE_IN_USE', `The workflow role is still held by ${refs.tasks} active task(s) and ${refs.client_members} client member(s); reassign them first`, refs);
    }
    await repo.softDeleteWorkflowRole(tx, id);
  });
}
