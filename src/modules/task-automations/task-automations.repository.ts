import type { TaskAutomationListParams } from './task-automations.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { firstRecord } from '../../platform/sql.ts';
import { liveTaskStatusesSql } from '../tasks/index.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { TASK_AUTOMATION_LIST_OPTIONS, type TaskAutomationRecord, type Trigger } from './task-automations.schemas.ts';

export const automations = tenantTable('task_automations', {
  alias: 'ta',
  softDelete: true,
  lockColumns: ['trigger', 'active'],
});
type Query = BaseQuery<'task_automations', 'ta'>;

const COLUMNS = [
  'ta.id',
  'ta.name',
  'ta.trigger',
  'ta.client_id',
  'ta.project_id',
  'ta.topic_id',
  'ta.type',
  'ta.status',
  'ta.actions',
  'ta.active',
  'ta.created_at',
  'ta.updated_at',
] as const;

const project = (query: Query) => query.select(COLUMNS);

function applyFilters(query: Query, filters: ListFilters<TaskAutomationListParams>) {
  let q = query;
  const triggers = splitList(filters.trigger);
  if (triggers) q = q.where('ta.trigger', 'in', triggers as Trigger[]);
  if (filters.active !== undefined) q = q.where('ta.active', '=', filters.active);
  if (filters.client_id !== undefined) q = q.where('ta.client_id', '=', filters.client_id);
  return q;
}

export function listAutomations(ctx: Ctx, params: TaskAutomationListParams) {
  return listPage<TaskAutomationRecord, TaskAutomationListParams>(ctx, {
    listId: 'task-automations',
    params,
    options: TASK_AUTOMATION_LIST_OPTIONS,
    idColumn: 'ta.id',
    project,
    base: (filters) => applyFilters(automations.base(ctx), filters),
  });
}

export async function findAutomation(ctx: Ctx, id: number): Promise<TaskAutomationRecord | undefined> {
  return firstRecord<TaskAutomationRecord>(project(automations.base(ctx).where('ta.id', '=', id)));
}

/** The company's live, active rules for a trigger, oldest first (the order they run in). */
export async function liveRules(ctx: Ctx, trigger: Trigger): Promise<TaskAutomationRecord[]> {
  return project(automations.base(ctx))
    .where('ta.trigger', '=', trigger)
    .where('ta.active', '=', true)
    .orderBy('ta.id')
    .execute() as Promise<TaskAutomationRecord[]>;
}

/**
 * Records the last status of every live task, so the outbox trigger can tell a status change from the
 * first status_changed rule's activation on (it keeps the table current from then on).
 */
export async function seedTaskStates(ctx: Ctx): Promise<void> {
  // The rows come from the tasks' own SQL, their company predicate with them.
  await sql`insert into task_automation_task_states (company_id, task_id, status) ${liveTaskStatusesSql(ctx)}
    on conflict (company_id, task_id) do update set status = excluded.status`.execute(ctx.db);
}

/** The durable per-trigger marker; false when this rule already ran for this trigger. */
export async function claimRun(
  ctx: Ctx,
  automationId: number,
  taskId: number,
  triggerKey: string,
  actions: string[],
): Promise<boolean> {
  const row = await scoped
    .insert(ctx, 'task_automation_runs', [
      { automation_id: automationId, task_id: taskId, trigger_key: triggerKey, actions },
    ])
    .onConflict((oc) => oc.columns(['company_id', 'automation_id', 'trigger_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
