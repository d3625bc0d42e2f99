import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { firstRecord, likeContains } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { deleteSourceTasks, insertSourceTask, liveTaskSql, sourceTaskRows, updateSourceTask } from '../tasks/index.ts';
import {
  MASTER_LIST_OPTIONS,
  TEMPLATE_LIST_OPTIONS,
  type MasterListParams,
  type MasterTaskInput,
  type MasterTaskRecord,
  type TemplateListParams,
  type TemplateRecord,
  type WorkflowKind,
} from './workflows.schemas.ts';

export const templates = tenantTable('workflow_templates', { alias: 'w', softDelete: true });
type TemplateQuery = BaseQuery<'workflow_templates', 'w'>;

const LIST_ID: Record<WorkflowKind, string> = {
  workflow_template: 'workflow-templates',
  project_workflow: 'project-workflows',
};

const ofKind = (ctx: Ctx, kind: WorkflowKind) => templates.base(ctx).where('w.kind', '=', kind);

/** The record's columns, with its live master rows counted (a master row is a live task of the company). */
const projectTemplate = (ctx: Ctx) => (query: TemplateQuery) =>
  query.select([
    'w.id',
    'w.name',
    'w.description',
    'w.plan_client_id as client_id',
    'w.project_type_id',
    sql<number>`(select count(*)::int from workflow_master_tasks m
      where m.company_id = w.company_id and m.template_id = w.id and ${liveTaskSql(ctx, 'm.task_id', false)})`.as(
      'task_count',
    ),
    sql<number>`(select count(*)::int from workflow_applications a
      where a.company_id = w.company_id and a.template_id = w.id)`.as('applied_client_count'),
    'w.created_at',
    'w.updated_at',
  ]);

export function listTemplates(ctx: Ctx, kind: WorkflowKind, params: TemplateListParams) {
  return listPage<TemplateRecord, TemplateListParams>(ctx, {
    listId: LIST_ID[kind],
    params,
    options: TEMPLATE_LIST_OPTIONS,
    idColumn: 'w.id',
    project: projectTemplate(ctx),
    base: (filters) => {
      const q = ofKind(ctx, kind);
      return filters.q === undefined ? q : q.where('w.name', 'ilike', likeContains(filters.q));
    },
  });
}

export async function findTemplate(ctx: Ctx, kind: WorkflowKind, id: number): Promise<TemplateRecord | undefined> {
  // A cast, not firstRecord: the row has both engines' ids, one of them null; each route's schema keeps its own.
  return projectTemplate(ctx)(ofKind(ctx, kind).where('w.id', '=', id)).executeTakeFirst() as Promise<
    TemplateRecord | undefined
  >;
}

export interface LockedTemplate {
  id: number;
  kind: WorkflowKind;
  name: string;
  plan_client_id: number | null;
  project_type_id: number | null;
}

/** Locks a live template of this engine: apply, push and master-task writes of one template are serialised. */
export function lockTemplate(ctx: Ctx, kind: WorkflowKind, id: number): Promise<LockedTemplate | undefined> {
  return ofKind(ctx, kind)
    .where('w.id', '=', id)
    .select(['w.id', 'w.kind', 'w.name', 'w.plan_client_id', 'w.project_type_id'])
    .forUpdate()
    .executeTakeFirst();
}

// ---- master tasks --------------------------------------------------------------------------------------------

const masters = (ctx: Ctx, templateId: number) =>
  sourceTaskRows(ctx)
    .innerJoin('workflow_master_tasks as m', (join) =>
      join.onRef('m.company_id', '=', 't.company_id').onRef('m.task_id', '=', 't.id'),
    )
    .where('m.template_id', '=', templateId)
    .where('t.deleted_at', 'is', null);

const projectMaster = (query: ReturnType<typeof masters>) =>
  query.select((eb) => [
    't.id',
    'm.template_id',
    't.title',
    't.description',
    // Master rows are written as task or request only (MasterTaskCreate); the column admits every task type.
    eb.ref('t.type').$castTo<MasterTaskRecord['type']>().as('type'),
    't.topic_id',
    't.is_important',
    't.is_extra',
    't.estimation',
    't.workflow_role_ids',
    'm.due_in_days',
    't.created_at',
    't.updated_at',
  ]);

export function listMasters(ctx: Ctx, templateId: number, params: MasterListParams) {
  return listPage<MasterTaskRecord, MasterListParams>(ctx, {
    listId: 'workflow-master-tasks',
    params,
    options: MASTER_LIST_OPTIONS,
    idColumn: 't.id',
    project: projectMaster,
    base: () => masters(ctx, templateId),
  });
}

export async function findMaster(ctx: Ctx, templateId: number, taskId: number) {
  return firstRecord<MasterTaskRecord>(projectMaster(masters(ctx, templateId).where('t.id', '=', taskId)));
}

/** The task columns a master task input sets (due_in_days lives on the link row). */
function taskColumns(input: MasterTaskInput) {
  const columns: Record<string, unknown> = {};
  for (const key of ['title', 'description', 'type', 'topic_id', 'is_important', 'is_extra', 'estimation'] as const)
    if (input[key] !== undefined) columns[key] = input[key];
  if (input.workflow_role_ids !== undefined) columns.workflow_role_ids = input.workflow_role_ids;
  return columns;
}

export async function insertMaster(
  ctx: Ctx,
  template: LockedTemplate,
  input: MasterTaskInput & { title: string },
): Promise<number> {
  const id = await insertSourceTask(ctx, template.kind, template.plan_client_id, {
    ...taskColumns(input),
    title: input.title,
  });
  await scoped
    .insert(ctx, 'workflow_master_tasks', [
      { task_id: id, template_id: template.id, due_in_days: input.due_in_days ?? null },
    ])
    .execute();
  return id;
}

export async function updateMaster(ctx: Ctx, taskId: number, input: MasterTaskInput): Promise<void> {
  await updateSourceTask(ctx, taskId, taskColumns(input));
  // A changed offset is a change of the master: its updated_at moved on above, so push sees it.
  if (input.due_in_days !== undefined)
    await scoped
      .update(ctx, 'workflow_master_tasks')
      .set({ due_in_days: input.due_in_days })
      .where('task_id', '=', taskId)
      .execute();
}

export async function deleteMasters(ctx: Ctx, taskIds: readonly number[]): Promise<void> {
  await deleteSourceTasks(ctx, taskIds);
}

export async function liveMasterIds(ctx: Ctx, templateId: number): Promise<number[]> {
  return (await masters(ctx, templateId).select('t.id').execute()).map((r) => r.id);
}
