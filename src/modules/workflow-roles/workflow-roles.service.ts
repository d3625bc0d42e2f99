import type { WorkflowRoleListParams } from './workflow-roles.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { fail } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import {
  MAX_SORT_ORDER,
  type WorkflowRoleCreateBody,
  type WorkflowRoleRecord,
  type WorkflowRoleUpdateBody,
} from './workflow-roles.schemas.ts';
import * as repo from './workflow-roles.repository.ts';

const target = { what: 'Workflow role', lock: repo.workflowRoles.lock, read: repo.findWorkflowRole };

export const listWorkflowRoles = (ctx: Ctx, params: WorkflowRoleListParams) => repo.listWorkflowRoles(ctx, params);

export async function getWorkflowRole(ctx: Ctx, id: number): Promise<WorkflowRoleRecord> {
  return orNotFound(await repo.findWorkflowRole(ctx, id), 'Workflow role');
}

export async function createWorkflowRole(ctx: Ctx, body: WorkflowRoleCreateBody): Promise<WorkflowRoleRecord> {
  return inTransaction(ctx, async (tx) => {
    const sortOrder = body.sort_order ?? (await repo.nextSortOrder(tx, MAX_SORT_ORDER));
    const id = await repo.workflowRoles.insert(tx, {
      name: body.name,
      color: body.color ?? null,
      sort_order: sortOrder,
    });
    return getWorkflowRole(tx, id);
  });
}

export const updateWorkflowRole = (ctx: Ctx, id: number, body: WorkflowRoleUpdateBody) =>
  mutate(ctx, target, id, body, (tx) => repo.workflowRoles.update(tx, id, body));

/** Refused with 409 ROLE_IN_USE while an unfinished task or a client member still holds the role. */
export const deleteWorkflowRole = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, async (tx) => {
    const refs = await repo.countReferences(tx, id);
    if (refs.tasks > 0 || refs.client_members > 0) {
      fail(
        'ROLE_IN_USE',
        `The workflow role is still held by ${refs.tasks} active task(s) and ${refs.client_members} client member(s); reassign them first`,
        refs,
      );
    }
    await repo.workflowRoles.softDelete(tx, id);
  });
