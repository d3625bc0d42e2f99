import type { WorkflowTaskListParams } from './client-workflow.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { roleHolderIds } from '../client-members/index.ts';
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
    roleHolderIds().as('role_holder_ids'),
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
