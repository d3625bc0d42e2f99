import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { liveIds } from '../../platform/references.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { recordUnattended } from '../activities/index.ts';
import {
  CHECKLIST_MAX_ITEMS,
  createTask,
  getTask,
  replaceChecklist,
  updateTask,
  type TaskRecord,
  type TaskUpdateBody,
} from '../tasks/index.ts';
import type { ActionsBody, TaskAutomationRecord, Trigger } from './task-automations.schemas.ts';
import { claimRun } from './task-automations.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One occurrence of a trigger for one task: `key` names it for the at-most-once marker. */
export interface Firing {
  trigger: Trigger;
  taskId: number;
  key: string;
  /** When it happened (event time; for due_date_reached the due date): due-date offsets count from here. */
  at: Date;
  /** The task as the trigger saw it (the event's record), for the rule's conditions. */
  snapshot: Record<string, unknown>;
}

/**
 * Marks the transaction as automation work: the outbox trigger (migration 0093) does not queue the task
 * events it records, so an automation's own changes never trigger automations.
 */
export async function markAutomationWork(ctx: Ctx): Promise<void> {
  await sql`select set_config('app.task_automation', 'on', true)`.execute(ctx.db);
}

const CONDITIONS = ['client_id', 'project_id', 'topic_id', 'type', 'status'] as const;

/** A rule applies when each condition it sets equals the task's value at the trigger. */
export const matches = (rule: TaskAutomationRecord, snapshot: Record<string, unknown>) =>
  CONDITIONS.every((field) => rule[field] === null || rule[field] === snapshot[field]);

const shift = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS).toISOString();

/** The field changes of the rule, as one task update (one task.updated event). */
function fieldChanges(actions: ActionsBody, task: TaskRecord, at: Date): TaskUpdateBody {
  const change: TaskUpdateBody = {};
  if (actions.set_status !== undefined && actions.set_status !== task.status) change.status = actions.set_status;
  if (actions.due_date_offset_days !== undefined) {
    change.due_date = shift(at, actions.due_date_offset_days);
    change.has_due_date = 1;
  }
  const person = actions.assign_person_id;
  if (person !== undefined && !task.assignees.includes(person)) change.assignees = [...task.assignees, person];
  return change;
}

/** Appends open items after the task's own, as far as the checklist's cap allows. */
async function addChecklistItems(ctx: Ctx, task: TaskRecord, texts: string[]): Promise<void> {
  const items = (task.checklist?.items ?? []).map(({ id, text, done }) => ({ id, text, done }));
  const room = Math.max(0, CHECKLIST_MAX_ITEMS - items.length);
  if (room === 0) return;
  const added = texts.slice(0, room).map((text) => ({ text, done: false }));
  await replaceChecklist(ctx, task.id, { items: [...items, ...added] });
}

async function createFollowUp(ctx: Ctx, rule: TaskAutomationRecord, task: TaskRecord, firing: Firing): Promise<number> {
  const at = firing.at;
  const followUp = rule.actions.follow_up!;
  const created = await createTask(ctx, {
    title: followUp.title,
    client_id: task.client_id,
    project_id: task.project_id,
    topic_id: task.topic_id,
    assignees: followUp.assign_person_id !== undefined ? [followUp.assign_person_id] : task.assignees,
    ...(followUp.due_date_offset_days !== undefined ? { due_date: shift(at, followUp.due_date_offset_days) } : {}),
  });
  await audit(ctx, rule, created.id, 'created', ['follow_up'], firing.key);
  return created.id;
}

/** Notifications go to live people only (someone named by the rule may have left since). */
async function notify(ctx: Ctx, rule: TaskAutomationRecord, task: TaskRecord, people: number[]): Promise<void> {
  const live = await liveIds(ctx, 'people', people);
  const rows = people
    .filter((id) => live.has(id))
    .map((person_id) => ({
      person_id,
      type: 'task_automation',
      title: rule.name,
      body: `Task #${task.id} "${task.title}" (status ${task.status})`,
      data: JSON.stringify({ task_id: task.id, automation_id: rule.id, trigger: rule.trigger }),
    }));
  if (rows.length > 0) await scoped.insert(ctx, 'notifications', rows).execute();
}

/** The audit trail's row for an automation's write: no key and no person, the rule named by the path. */
async function audit(
  ctx: Ctx,
  rule: TaskAutomationRecord,
  taskId: number,
  action: string,
  fields: string[],
  key: string,
) {
  await recordUnattended(ctx, {
    entity: 'task',
    record_id: taskId,
    action,
    fields: [...fields].sort(),
    method: 'AUTOMATION',
    path: `/task-automations/${rule.id}`,
    request_id: key,
  });
}

/**
 * Runs one rule for one firing, in the caller's transaction: the run marker first (a rule that already ran
 * for this firing does nothing), then the actions through the tasks module's own writes (their checks and
 * events apply), then the audit row. Answers whether it ran. A task deleted meanwhile is left alone.
 */
export async function runRule(ctx: Ctx, rule: TaskAutomationRecord, firing: Firing): Promise<boolean> {
  if (!matches(rule, firing.snapshot)) return false;
  if (!(await liveIds(ctx, 'tasks', [firing.taskId])).has(firing.taskId)) return false;
  const kinds = Object.keys(rule.actions);
  if (!(await claimRun(ctx, rule.id, firing.taskId, firing.key, kinds))) return false;
  let task = await getTask(ctx, firing.taskId);
  const change = fieldChanges(rule.actions, task, firing.at);
  if (Object.keys(change).length > 0) task = await updateTask(ctx, task.id, change);
  if (rule.actions.checklist_items) await addChecklistItems(ctx, task, rule.actions.checklist_items);
  if (rule.actions.follow_up) await createFollowUp(ctx, rule, task, firing);
  if (rule.actions.notify_person_ids) await notify(ctx, rule, task, rule.actions.notify_person_ids);
  await audit(ctx, rule, task.id, 'automation', kinds, firing.key);
  return true;
}
