import type { WorkflowRoleListParams } from './workflow-roles.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { countRoleHolders } from '../client-members/index.ts';
import { countOpenTasksWithRole } from '../tasks/index.ts';
import { WORKFLOW_ROLE_LIST_OPTIONS, type WorkflowRoleRecord } from './workflow-roles.schemas.ts';
import { firstRecord } from '../../platform/sql.ts';

export const workflowRoles = tenantTable('workflow_roles', { alias: 'w', softDelete: true });
type Query = BaseQuery<'workflow_roles', 'w'>;

function project(query: Query) {
  return query.select(['w.id', 'w.name', 'w.color', 'w.sort_order', 'w.created_at', 'w.updated_at']);
}

export function listWorkflowRoles(ctx: Ctx, params: WorkflowRoleListParams) {
  return listPage<WorkflowRoleRecord, WorkflowRoleListParams>(ctx, {
    listId: 'workflow-roles',
    params,
    options: WORKFLOW_ROLE_LIST_OPTIONS,
    idColumn: 'w.id',
    project,
    base: () => workflowRoles.base(ctx),
  });
}

export async function findWorkflowRole(ctx: Ctx, id: number): Promise<WorkflowRoleRecord | undefined> {
  return firstRecord<WorkflowRoleRecord>(project(workflowRoles.base(ctx).where('w.id', '=', id)));
}

/** One after the highest live sort_order (1 for the first role), capped so it stays a valid input value. */
export async function nextSortOrder(ctx: Ctx, cap: number): Promise<number> {
  const row = await workflowRoles
    .base(ctx)
    .select(sql<number>`least(coalesce(max(w.sort_order), 0) + 1, ${cap})::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * What still points at the role: live, unfinished tasks (finished and archived ones are history) and
 * live client members of live clients. Counted company-wide, whatever the caller may see.
 */
export async function countReferences(ctx: Ctx, id: number): Promise<{ tasks: number; client_members: number }> {
  return { tasks: await countOpenTasksWithRole(ctx, id), client_members: await countRoleHolders(ctx, id) };
}
