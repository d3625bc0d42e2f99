import type { WorkflowTaskListParams } from './client-workflow.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import type { BaseQuery } from '../../platform/tenant-table.ts';
import { roleHolderIds } from '../client-members/index.ts';
import { clientWorkRows, taskAssigneeIds } from '../tasks/index.ts';
import { madeFromWorkflow, workflowOrigin } from '../workflow-templates/index.ts';
import { WORKFLOW_TASK_LIST_OPTIONS, type WorkflowTaskRecord } from './client-workflow.schemas.ts';

type TaskQuery = BaseQuery<'tasks', 't'>;

/** Live work rows of the client made from a workflow (an instance row), or carrying workflow roles. */
function workflowTasks(ctx: Ctx, clientId: number, filters: ListFilters<WorkflowTaskListParams>): TaskQuery {
  let q = clientWorkRows(ctx, clientId).where(
    sql<boolean>`(cardinality(t.workflow_role_ids) > 0 or ${madeFromWorkflow()})`,
  );
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
