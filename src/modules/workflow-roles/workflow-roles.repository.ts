import { sql } from 'kysely';
import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { nextStamp } from '../../platform/sql.ts';
import { WORKFLOW_ROLE_LIST_OPTIONS, type WorkflowRoleRecord } from './workflow-roles.schemas.ts';

export type WorkflowRoleColumns = Pick<WorkflowRoleRecord, 'name' | 'color' | 'sort_order'>;

function base(ctx: Ctx) {
  return ctx.db
    .selectFrom('workflow_roles as w')
    .where('w.company_id', '=', ctx.companyId)
    .where('w.deleted_at', 'is', null);
}

function project(query: ReturnType<typeof base>) {
  return query.select(['w.id', 'w.name', 'w.color', 'w.sort_order', 'w.created_at', 'w.updated_at']);
}

export async function listWorkflowRoles(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'workflow-roles', params, WORKFLOW_ROLE_LIST_OPTIONS);
  return paginate<WorkflowRoleRecord>(ctx, {
    listId: 'workflow-roles', base: base(ctx), idColumn: 'w.id', project: project as never,
    options: WORKFLOW_ROLE_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findWorkflowRole(ctx: Ctx, id: number): Promise<WorkflowRoleRecord | undefined> {
  return project(base(ctx).where('w.id', '=', id)).executeTakeFirst() as Promise<WorkflowRoleRecord | undefined>;
}

/** Locks the row for the rest of the transaction; undefined when absent, deleted or another tenant's. */
export async function lockWorkflowRole(ctx: Ctx, id: number) {
  return base(ctx).where('w.id', '=', id).select(['w.id', 'w.updated_at']).forUpdate().executeTakeFirst();
}

/** One after the highest live sort_order (1 for the first role), capped so it stays a valid input value. */
export async function nextSortOrder(ctx: Ctx, cap: number): Promise<number> {
  const row = await base(ctx).select(sql<number>`least(coalesce(max(w.sort_order), 0) + 1, ${cap})::int`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}

export async function insertWorkflowRole(ctx: Ctx, values: WorkflowRoleColumns): Promise<number> {
  const row = await ctx.db.insertInto('workflow_roles').values({ ...values, company_id: ctx.companyId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateWorkflowRole(ctx: Ctx, id: number, values: Partial<WorkflowRoleColumns>): Promise<void> {
  await ctx.db.updateTable('workflow_roles').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteWorkflowRole(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'workflow_roles', id);
}

/**
 * What still points at the role: live, unfinished tasks (finished and archived ones are history) and
 * live client members of live clients. Counted company-wide, whatever the caller may see.
 */
export async function countReferences(ctx: Ctx, id: number): Promise<{ tasks: number; client_members: number }> {
  const tasks = await ctx.db.selectFrom('tasks as t')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('t.company_id', '=', ctx.companyId)
    .where('t.deleted_at', 'is', null)
    .where('t.status', 'not in', ['finished', 'archived'])
    .where(sql<boolean>`t.workflow_role_ids @> array[${id}]::int[]`)
    .executeTakeFirstOrThrow();
  const members = await ctx.db.selectFrom('client_members as cm')
    .innerJoin('clients as c', (join) => join.onRef('c.company_id', '=', 'cm.company_id').onRef('c.id', '=', 'cm.client_id'))
    .select(sql<number>`count(*)::int`.as('n'))
    .where('cm.company_id', '=', ctx.companyId)
    .where('cm.deleted_at', 'is', null)
    .where('c.deleted_at', 'is', null)
    .where('cm.workflow_role_id', '=', id)
    .executeTakeFirstOrThrow();
  return { tasks: tasks.n, client_members: members.n };
}
