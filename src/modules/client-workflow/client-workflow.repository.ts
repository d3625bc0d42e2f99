import type { WorkflowTaskListParams } from './client-workflow.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { nextStamp } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { taskAssigneeIds } from '../tasks/index.ts';
import { madeFromWorkflow, workflowOrigin } from '../workflow-templates/index.ts';
import { WORKFLOW_TASK_LIST_OPTIONS, type WorkflowTaskRecord } from './client-workflow.schemas.ts';

/** The clients this module writes under: live, and for a plain member's key only those they see. */
export const clientRows = tenantTable('clients', {
  alias: 'c',
  softDelete: true,
  lockColumns: ['default_person_id'],
});

/** Members who can take work: anyone but an inactive member (pending and limited members included). */
export async function workingMembers(ctx: Ctx, personIds: readonly number[]): Promise<Set<number>> {
  if (personIds.length === 0) return new Set();
  const rows = await scoped
    .select(ctx, 'members', 'm')
    .select('m.person_id')
    .where('m.person_id', 'in', [...personIds])
    .where('m.status', '<>', 'inactive')
    .execute();
  return new Set(rows.map((r) => r.person_id));
}

/** The client's live memberships, by person. */
export const liveMembers = (ctx: Ctx, clientId: number) =>
  scoped
    .select(ctx, 'client_members', 'cm')
    .select(['cm.id as client_member_id', 'cm.person_id', 'cm.workflow_role_id'])
    .where('cm.client_id', '=', clientId)
    .where('cm.deleted_at', 'is', null)
    .orderBy('cm.person_id')
    .execute();

/** Locks the live clients among `ids` that the actor sees (serialising with membership writes on them). */
export async function lockClients(ctx: Ctx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await clientRows
    .base(ctx)
    .where('c.id', 'in', [...ids])
    .select('c.id')
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

const liveMembership = (ctx: Ctx, clientIds: readonly number[], personId: number) =>
  scoped
    .update(ctx, 'client_members')
    .where('client_id', 'in', [...clientIds])
    .where('person_id', '=', personId)
    .where('deleted_at', 'is', null);

/** Gives the person its role on each client, making it a member where it is not one. */
export async function ensureMembers(
  ctx: Ctx,
  clientIds: readonly number[],
  personId: number,
  roleOf: (clientId: number) => number | null | undefined,
): Promise<void> {
  if (clientIds.length === 0) return;
  const existing = await scoped
    .select(ctx, 'client_members', 'cm')
    .select(['cm.client_id', 'cm.workflow_role_id'])
    .where('cm.client_id', 'in', [...clientIds])
    .where('cm.person_id', '=', personId)
    .where('cm.deleted_at', 'is', null)
    .execute();
  const current = new Map(existing.map((r) => [r.client_id, r.workflow_role_id]));
  const fresh = clientIds.filter((id) => !current.has(id));
  if (fresh.length)
    await scoped
      .insert(
        ctx,
        'client_members',
        fresh.map((client_id) => ({ client_id, person_id: personId, workflow_role_id: roleOf(client_id) ?? null })),
      )
      .execute();
  for (const [clientId, role] of current) {
    const wanted = roleOf(clientId);
    if (wanted === undefined || wanted === role) continue;
    await liveMembership(ctx, [clientId], personId)
      .set({ workflow_role_id: wanted, updated_at: nextStamp() })
      .execute();
  }
}

/** Ends the person's memberships on these clients (soft delete); answers each ended one's workflow role. */
export async function endMemberships(
  ctx: Ctx,
  clientIds: readonly number[],
  personId: number,
): Promise<Array<{ client_id: number; workflow_role_id: number | null }>> {
  if (clientIds.length === 0) return [];
  const rows = await liveMembership(ctx, clientIds, personId)
    .set({ deleted_at: sql`now()`, updated_at: nextStamp() })
    .returning(['client_id', 'workflow_role_id'])
    .execute();
  return rows as Array<{ client_id: number; workflow_role_id: number | null }>;
}

/** Takes the workflow role from the client's members not named in `keep`. */
export async function clearRolesExcept(ctx: Ctx, clientId: number, keep: readonly number[]): Promise<void> {
  let query = scoped
    .update(ctx, 'client_members')
    .set({ workflow_role_id: null, updated_at: nextStamp() })
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .where('workflow_role_id', 'is not', null);
  if (keep.length) query = query.where('person_id', 'not in', [...keep]);
  await query.execute();
}

type TaskQuery = BaseQuery<'tasks', 't'>;

/** Live work rows of the client made from a workflow (an instance row), or carrying workflow roles. */
function workflowTasks(ctx: Ctx, clientId: number, filters: ListFilters<WorkflowTaskListParams>): TaskQuery {
  let q = scoped
    .select(ctx, 'tasks', 't')
    .where('t.client_id', '=', clientId)
    .where('t.deleted_at', 'is', null)
    .where('t.template_kind', 'is', null)
    .where('t.type', 'in', ['task', 'request'])
    .where(sql<boolean>`(cardinality(t.workflow_role_ids) > 0 or ${madeFromWorkflow()})`);
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('t.status', 'in', statuses);
  if (filters.template_id !== undefined) q = q.where(madeFromWorkflow(filters.template_id));
  return q;
}

const projectTask = (query: TaskQuery) =>
  query.select([
    't.id',
    't.title',
    't.status',
    't.type',
    't.project_id',
    't.date',
    't.due_date',
    't.finished_at',
    't.workflow_role_ids',
    taskAssigneeIds().as('assignees'),
    sql<number[]>`array(select distinct cm.person_id from client_members cm where cm.company_id = t.company_id
        and cm.client_id = t.client_id and cm.deleted_at is null and cm.workflow_role_id = any(t.workflow_role_ids)
        order by cm.person_id)`.as('role_holder_ids'),
    workflowOrigin('template_id').as('template_id'),
    workflowOrigin('master_task_id').as('master_task_id'),
    't.created_at',
    't.updated_at',
  ]);

export const listWorkflowTasks = (ctx: Ctx, clientId: number, params: WorkflowTaskListParams) =>
  listPage<WorkflowTaskRecord, WorkflowTaskListParams>(ctx, {
    listId: 'client-workflow-tasks',
    params,
    options: WORKFLOW_TASK_LIST_OPTIONS,
    idColumn: 't.id',
    project: projectTask,
    base: (filters) => workflowTasks(ctx, clientId, filters),
  });

/** The live clients among `ids` the actor sees, in id order (a bulk job's targets). */
export async function visibleClientIds(ctx: Ctx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await clientRows
    .base(ctx)
    .where('c.id', 'in', [...ids])
    .select('c.id')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => r.id);
}
