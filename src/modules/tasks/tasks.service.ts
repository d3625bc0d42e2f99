import type { Ctx } from '../../platform/context.ts';
import { assertCustomFieldValues } from '../custom-fields/index.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference, notFound } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { customFieldsInput, toFlag } from '../../platform/fields.ts';
import { mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertReferenceList, liveIds } from '../../platform/references.ts';
import type { NewRow, RowChanges } from '../../platform/tenant-table.ts';
import { normaliseRule, type RecurrenceRule } from './tasks.recurrence.ts';
import { leanTask, syncOccurrences } from './tasks.occurrences.ts';
import {
  NOT_COMPLETABLE,
  type ChecklistItemRecord,
  type ChecklistPutBody,
  type CommentCreateBody,
  type CommentRecord,
  type TaskCreateBody,
  type TaskListParams,
  type TaskRecord,
  type TaskUpdateBody,
} from './tasks.schemas.ts';
import { clientSeen } from '../clients/index.ts';
import { liveProjectClient, visibleProjectRef } from '../projects/index.ts';
import * as repo from './tasks.repository.ts';
import type { LockedTask } from './tasks.repository.ts';
import { assertNotTemplate, assertWorkClient, lockWorkTask } from './tasks.templates.ts';

type TaskInput = TaskCreateBody | TaskUpdateBody;

const duplicateAlias = (field: string, aliases: string[]) =>
  new AppError('VALIDATION_ERROR', `Send ${field} or one of its aliases (${aliases.join(', ')}), not several`, {
    reason: 'DUPLICATE_ALIAS',
    field,
  });

/** `assignees` or one of its input aliases; undefined when none was sent. */
function assigneesInput(body: TaskInput): number[] | undefined {
  const sent = [body.assignees, body.assignee_ids, body.assignees_ids].filter((v) => v !== undefined);
  if (sent.length > 1) throw duplicateAlias('assignees', ['assignee_ids', 'assignees_ids']);
  return sent[0];
}

function checkTimezone(timeZone: string | undefined): void {
  if (timeZone === undefined) return;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw domainValidation('INVALID_TIMEZONE', `timezone ${timeZone} is not a known IANA zone name`, {
      field: 'timezone',
      value: timeZone,
    });
  }
}

function columnsFrom(body: TaskInput): RowChanges<'tasks'> {
  const {
    assignees: _a,
    assignee_ids: _b,
    assignees_ids: _c,
    fields: _f,
    custom_fields: _cf,
    recurrence_rule: _r,
    status: _s,
    is_important,
    is_extra,
    has_due_date,
    description,
    ...plain
  } = body;
  const columns: RowChanges<'tasks'> = { ...plain };
  if (is_important !== undefined) columns.is_important = toFlag(is_important) === 1;
  if (is_extra !== undefined) columns.is_extra = toFlag(is_extra) === 1;
  if (description !== undefined) columns.description = description ?? '';
  // has_due_date follows due_date unless it is sent explicitly.
  if (has_due_date !== undefined) columns.has_due_date = toFlag(has_due_date);
  else if (body.due_date !== undefined) columns.has_due_date = body.due_date === null ? 0 : 1;
  const custom = customFieldsInput(body);
  if (custom.both) throw duplicateAlias('custom_fields', ['fields']);
  if (custom.present) columns.custom_fields = custom.value;
  return columns;
}

/**
 * Client and project must be visible records of the company, and agree: a task of a project that has a
 * client belongs to that client. Sending a project without a client takes the project's client.
 */
async function resolveClient(ctx: Ctx, body: TaskInput, current?: LockedTask): Promise<{ client_id?: number | null }> {
  if (body.client_id != null && !(await clientSeen(ctx, body.client_id)))
    throw invalidReference('client', 'client_id', body.client_id);
  const project = body.project_id != null ? await visibleProjectRef(ctx, body.project_id) : undefined;
  if (body.project_id != null && !project) throw invalidReference('project', 'project_id', body.project_id);
  if (body.client_id === undefined) return project?.client_id != null ? { client_id: project.client_id } : {};
  const projectId = body.project_id !== undefined ? body.project_id : (current?.project_id ?? null);
  const projectClient = project
    ? project.client_id
    : projectId !== null
      ? (await liveProjectClient(ctx, projectId))?.client_id
      : null;
  if (projectClient != null && projectClient !== body.client_id) {
    const [entity, field] = body.project_id !== undefined ? ['project', 'project_id'] : ['client', 'client_id'];
    throw new AppError(
      entity === 'project' ? 'INVALID_PROJECT' : 'INVALID_CLIENT',
      `Project ${projectId} belongs to client ${projectClient}; a task of it must have that client`,
      { field, reason: 'CLIENT_PROJECT_MISMATCH', project_id: projectId, project_client_id: projectClient },
    );
  }
  return {};
}

async function checkReferences(ctx: Ctx, body: TaskInput, assignees: number[] | undefined): Promise<void> {
  await assertCustomFieldValues(ctx, 'task', body);
  await assertReferenceList(
    ctx,
    'topics',
    'INVALID_TOPIC',
    'topic_id',
    body.topic_id != null ? [body.topic_id] : undefined,
  );
  if (assignees?.length) {
    const found = await liveIds(ctx, 'people', assignees);
    const missing = assignees.find((id) => !found.has(id));
    if (missing !== undefined) throw invalidReference('person', 'assignees', missing);
  }
  if (body.workflow_role_ids?.length) {
    const found = await liveIds(ctx, 'workflow_roles', body.workflow_role_ids);
    const missing = body.workflow_role_ids.filter((id) => !found.has(id));
    if (missing.length)
      throw domainValidation(
        'INVALID_WORKFLOW_ROLE',
        `workflow_role_ids contains ids that are not workflow roles of this company: ${missing.join(', ')}`,
        { field: 'workflow_role_ids', invalid_ids: missing },
      );
  }
  checkTimezone(body.timezone);
}

export const listTasks = (ctx: Ctx, params: TaskListParams) => repo.listTasks(ctx, params);

/** Reaches any row by id, templates and timers included, within the actor's visibility. */
export async function getTask(ctx: Ctx, id: number): Promise<TaskRecord> {
  return orNotFound(await repo.findTask(ctx, id), 'Task');
}

/** 404 unless the task exists and the actor sees it. */
export async function assertTaskVisible(ctx: Ctx, id: number): Promise<void> {
  if (!(await repo.taskExists(ctx, id))) throw notFound('Task');
}

/** The row just written, even if the write took it out of the actor's sight (e.g. a member unassigning themselves). */
const written = async (ctx: Ctx, id: number) => (await repo.findTask(ctx, id, false))!;

const target = { what: 'Task', lock: repo.lockTask };

/** A change to one task, answered with the task as written; like every task write it fires task.updated. */
function changeTask(
  ctx: Ctx,
  id: number,
  change: (tx: Ctx, current: LockedTask) => Promise<unknown>,
): Promise<TaskRecord> {
  return inTransaction(ctx, async (tx) => {
    await change(tx, await lockWorkTask(tx, id));
    const task = await written(tx, id);
    await recordEvent(tx, 'task', 'updated', leanTask(task));
    return task;
  });
}

export async function createTask(ctx: Ctx, body: TaskCreateBody): Promise<TaskRecord> {
  return inTransaction(ctx, async (tx) => {
    let assignees = assigneesInput(body);
    const columns: NewRow<'tasks'> = {
      timezone: tx.company.timezone,
      ...columnsFrom(body),
      ...(await resolveClient(tx, body)),
      title: body.title,
    };
    await assertWorkClient(tx, columns.client_id);
    await checkReferences(tx, body, assignees);
    // A plain member keeps sight of what they create: a client-less task is assigned to them unless they say otherwise.
    if (tx.actor.restricted && columns.client_id == null && assignees === undefined && tx.actor.personId !== null)
      assignees = [tx.actor.personId];
    if (body.status)
      Object.assign(columns, {
        status: body.status,
        finished_at: body.status === 'finished' ? new Date().toISOString() : null,
      });
    const rule = body.recurrence_rule
      ? normaliseRule(body.recurrence_rule, body.date ?? new Date().toISOString(), new Date(), tx.company.timezone)
      : null;
    if (rule) Object.assign(columns, { is_recurring: 1, recurrence_rule: JSON.stringify(rule) });
    const id = await repo.tasks.insert(tx, columns);
    if (assignees?.length) await repo.replaceAssignees(tx, id, assignees);
    const task = await written(tx, id);
    await recordEvent(tx, 'task', 'created', leanTask(task));
    if (rule) await syncOccurrences(tx, task, rule);
    return task;
  });
}

/** The recurrence change a PATCH asks for: undefined (none), null (the series ends) or the new rule. */
function recurrenceChange(
  body: TaskUpdateBody,
  current: LockedTask,
  timeZone: string,
): RecurrenceRule | null | undefined {
  if (body.recurrence_rule === undefined) return undefined;
  if (body.recurrence_rule === null) return null;
  if (current.recurrence_parent_id !== null) {
    throw domainValidation(
      'INVALID_RECURRENCE_RULE',
      'This task is an occurrence of a recurring task; set the rule on its master',
      { field: 'recurrence_rule', master_id: current.recurrence_parent_id },
    );
  }
  const start = body.date ?? current.date ?? new Date().toISOString();
  return normaliseRule(body.recurrence_rule, start, new Date(), timeZone);
}

// Not mutate(): the record read back after the change is also the event's, so it is read once.
export async function updateTask(ctx: Ctx, id: number, body: TaskUpdateBody): Promise<TaskRecord> {
  return inTransaction(ctx, async (tx) => {
    const current = await lockWorkTask(tx, id);
    if (Object.keys(body).length === 0) return written(tx, id);
    const assignees = assigneesInput(body);
    const columns = { ...columnsFrom(body), ...(await resolveClient(tx, body, current)) };
    await assertWorkClient(tx, columns.client_id);
    await checkReferences(tx, body, assignees);
    const rule = recurrenceChange(body, current, tx.company.timezone);
    if (rule !== undefined)
      Object.assign(columns, { is_recurring: rule ? 1 : 0, recurrence_rule: rule ? JSON.stringify(rule) : null });
    await repo.tasks.update(tx, id, columns);
    if (body.status !== undefined) await repo.setStatus(tx, [id], body.status);
    if (assignees !== undefined) await repo.replaceAssignees(tx, id, assignees);
    const task = await written(tx, id);
    await recordEvent(tx, 'task', 'updated', leanTask(task));
    if (rule !== undefined) await syncOccurrences(tx, task, rule);
    return task;
  });
}

/** Deleting a recurring master ends its series: its untouched future occurrences go with it. */
export const deleteTask = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, async (tx, current) => {
    await assertNotTemplate(tx, current);
    const task = current.is_recurring === 1 ? await written(tx, id) : undefined;
    await repo.tasks.softDelete(tx, id);
    await recordEvent(tx, 'task', 'deleted', { id });
    if (task) await syncOccurrences(tx, task, null);
  });

const badTransition = (operation: string, status: string, allowed: string) =>
  new AppError('INVALID_STATUS_TRANSITION', `Cannot ${operation} a task whose status is ${status}`, {
    status,
    operation,
    allowed_from: allowed,
  });

/** complete: new, in_progress or inactive -> finished; finished_at is set and an open prior status remembered. */
export const completeTask = (ctx: Ctx, id: number) =>
  changeTask(ctx, id, async (tx, current) => {
    if (NOT_COMPLETABLE.some((status) => status === current.status))
      throw badTransition('complete', current.status, 'new, in_progress, inactive');
    await repo.setStatus(tx, [id], 'finished');
  });

/** reopen: finished -> the remembered open status (new when none); finished_at is cleared. */
export const reopenTask = (ctx: Ctx, id: number) =>
  changeTask(ctx, id, async (tx, current) => {
    if (current.status !== 'finished') throw badTransition('reopen', current.status, 'finished');
    await repo.reopenTask(tx, id);
  });

/** Items keep the ids they are sent with; new items get ids above any the checklist has used so far. */
function checklistItems(body: ChecklistPutBody, previous: unknown): ChecklistItemRecord[] {
  const given = body.items.flatMap((item) => (item.id === undefined ? [] : [item.id]));
  const duplicate = given.find((id, index) => given.indexOf(id) !== index);
  if (duplicate !== undefined)
    throw domainValidation('DUPLICATE_CHECKLIST_ITEM_ID', `Checklist item id ${duplicate} is used twice`, {
      field: 'items',
      value: duplicate,
    });
  const oldIds = ((previous as { items?: Array<{ id?: unknown }> } | null)?.items ?? [])
    .map((item) => Number(item.id))
    .filter(Number.isInteger);
  let next = Math.max(0, ...given, ...oldIds) + 1;
  return body.items.map((item) => ({ id: item.id ?? next++, text: item.text, done: item.done }));
}

export const replaceChecklist = (ctx: Ctx, id: number, body: ChecklistPutBody) =>
  changeTask(ctx, id, (tx, current) =>
    repo.tasks.update(tx, id, { checklist: JSON.stringify({ items: checklistItems(body, current.checklist) }) }),
  );

/** The author is the person the key acts as. A comment is not a change of the task: no task event. */
export async function addComment(ctx: Ctx, id: number, body: CommentCreateBody): Promise<CommentRecord> {
  return inTransaction(ctx, async (tx) => {
    orNotFound(await repo.lockTask(tx, id), 'Task');
    return repo.insertComment(tx, id, body.body);
  });
}
