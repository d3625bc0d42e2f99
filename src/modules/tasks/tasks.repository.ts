import { isPlanClient, planClientSql } from '../clients/index.ts';
import { customFieldConditions } from '../custom-fields/index.ts';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { listPage, resolveList } from '../../platform/lists.ts';
import { cachedQuery, ShapeCache } from '../../platform/query-cache.ts';
import { isoz, likeContains, nextStamp } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery, tenant } from '../../platform/tenant-table.ts';
import { splitList } from '../../platform/fields.ts';
import {
  COMMENTS_INLINE_CAP,
  OPEN_STATUSES,
  TASK_LIST_OPTIONS,
  type CommentRecord,
  type TaskListFilters,
  type TaskListParams,
  type TaskRecord,
  type TaskStatus,
} from './tasks.schemas.ts';
import { TASK_PLAIN_COLUMNS, taskAssigneeIds, taskTrackedSeconds } from './tasks.derived.ts';

type TaskRow = Omit<TaskRecord, 'comments_truncated'>;

export const tasks = tenantTable('tasks', { alias: 't', softDelete: true });
/** The same live rows without the visibility rule: to echo a row the actor has just written (it may have left their sight by that write). */
const writtenTasks = tenantTable('tasks', { alias: 't', softDelete: true, visible: null });
type Query = BaseQuery<'tasks', 't'>;

const base = (ctx: Ctx, visible = true): Query => (visible ? tasks : writtenTasks).base(ctx);

/**
 * Columns plus what is derived in SQL: assignees, tracked time (closed entries count their duration,
 * else end - start; a running entry counts up to now) and the newest comments (cap + 1, to detect truncation).
 */
function project(query: Query) {
  return query.select([
    ...TASK_PLAIN_COLUMNS.map((c) => `t.${c}` as const),
    taskAssigneeIds().as('assignees'),
    taskTrackedSeconds().as('tracked_time'),
    sql<CommentRecord[]>`(select coalesce(json_agg(x order by x.id), '[]') from (
        select c.id, c.task_id, c.person_id, c.body, ${isoz('c.created_at')} as created_at, ${isoz('c.updated_at')} as updated_at
        from task_comments c where c.company_id = t.company_id and c.task_id = t.id and c.deleted_at is null
        order by c.id desc limit ${COMMENTS_INLINE_CAP + 1}) x)`.as('comments'),
  ]);
}

function withTruncation(row: TaskRow): TaskRecord {
  const truncated = row.comments.length > COMMENTS_INLINE_CAP;
  return { ...row, comments: truncated ? row.comments.slice(1) : row.comments, comments_truncated: truncated };
}

/** Template rows of either workflow engine: marked by template_kind, or hanging off a template (plan) client. */
const notTemplate = sql<boolean>`(t.template_kind is null and not ${planClientSql('t.company_id', 't.client_id')})`;

/** Whether a client_id filter names a template client, whose template (master) rows it then lists. */
export async function isTemplateClient(ctx: Ctx, clientId: number | undefined): Promise<boolean> {
  return clientId !== undefined && (await isPlanClient(ctx, clientId));
}

/**
 * The list rule: without a type filter only task and request rows; template rows are left out unless
 * the client filter names a template client; `fenced` false (explicit ids in a bulk action) reaches any row.
 */
function applyFilters(query: Query, filters: TaskListFilters, templateClient: boolean, fenced = true) {
  let q = query;
  if (filters.type !== undefined) q = q.where('t.type', '=', filters.type);
  else if (fenced) q = q.where('t.type', 'in', ['task', 'request']);
  if (fenced && !templateClient) q = q.where(notTemplate);
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('t.status', 'in', statuses);
  if (filters.client_id !== undefined) q = q.where('t.client_id', '=', filters.client_id);
  if (filters.project_id !== undefined) q = q.where('t.project_id', '=', filters.project_id);
  if (filters.topic_id !== undefined) q = q.where('t.topic_id', '=', filters.topic_id);
  if (filters.assignee_id !== undefined) {
    q = q.where(
      sql<boolean>`exists (select 1 from task_assignees fa where fa.company_id = t.company_id and fa.task_id = t.id and fa.person_id = ${filters.assignee_id})`,
    );
  }
  if (filters.q !== undefined) q = q.where('t.title', 'ilike', likeContains(filters.q));
  if (filters.is_important !== undefined)
    q = q.where('t.is_important', '=', filters.is_important === 'true' || filters.is_important === '1');
  for (const condition of customFieldConditions(filters, 't')) q = q.where(condition);
  return q;
}

const listShapes = new ShapeCache();

export async function listTasks(ctx: Ctx, params: TaskListParams) {
  // The template rule needs one lookup before the query is built, so the effective filters (a cursor's
  // own, when it carries them) are resolved here first; listPage resolves them again, the same way.
  const templateClient = await isTemplateClient(
    ctx,
    resolveList(ctx, 'tasks', params, TASK_LIST_OPTIONS).filters.client_id,
  );
  const page = await listPage<TaskRow, TaskListParams>(ctx, {
    listId: 'tasks',
    params,
    options: TASK_LIST_OPTIONS,
    idColumn: 't.id',
    project,
    base: (filters, c) => applyFilters(base(c), filters, templateClient),
    cache: { shapes: listShapes, key: templateClient ? 'template-client' : '' },
  });
  return { data: page.data.map(withTruncation), meta: page.meta };
}

/** Ids a bulk action selects: the list's rows for those filters, or exactly the given (visible) ids. */
export async function selectTaskIds(ctx: Ctx, filters: TaskListFilters, ids?: readonly number[]): Promise<number[]> {
  const fenced = ids === undefined;
  let query = applyFilters(base(ctx), filters, fenced && (await isTemplateClient(ctx, filters.client_id)), fenced);
  if (ids) query = query.where('t.id', 'in', [...ids]);
  return (await query.select('t.id').orderBy('t.id').execute()).map((r) => r.id);
}

const taskById = {
  visible: cachedQuery((ctx: Ctx, id: number) => project(base(ctx, true).where('t.id', '=', id))),
  any: cachedQuery((ctx: Ctx, id: number) => project(base(ctx, false).where('t.id', '=', id))),
};

export async function findTask(ctx: Ctx, id: number, visible = true): Promise<TaskRecord | undefined> {
  const [row] = await taskById[visible ? 'visible' : 'any'](ctx, id);
  return row ? withTruncation(row as unknown as TaskRow) : undefined;
}

export async function taskExists(ctx: Ctx, id: number): Promise<boolean> {
  return (await base(ctx).where('t.id', '=', id).select('t.id').executeTakeFirst()) !== undefined;
}

/** Locks the row with what the service's rules read; undefined when absent, deleted or invisible. */
export async function lockTask(ctx: Ctx, id: number) {
  return base(ctx)
    .where('t.id', '=', id)
    .select([
      't.id',
      't.status',
      't.client_id',
      't.project_id',
      't.date',
      't.is_recurring',
      't.recurrence_parent_id',
      't.recurrence_rule',
      't.checklist',
      't.template_kind',
    ])
    .forUpdate()
    .executeTakeFirst();
}
export type LockedTask = NonNullable<Awaited<ReturnType<typeof lockTask>>>;

/**
 * Moves live tasks to a status. Finishing sets finished_at and remembers an open prior status in
 * reopen_status; leaving finished clears both. Rows already in the status are untouched. Returns changed ids.
 */
export async function setStatus(ctx: Ctx, ids: readonly number[], status: TaskStatus): Promise<number[]> {
  if (ids.length === 0) return [];
  const finishing = status === 'finished';
  const rows = await scoped
    .update(ctx, 'tasks')
    .set({
      status,
      finished_at: finishing ? sql<string>`date_trunc('milliseconds', clock_timestamp())` : null,
      reopen_status: finishing
        ? sql<string>`case when status = any(${[...OPEN_STATUSES]}::text[]) then status end`
        : null,
      updated_at: nextStamp(),
    })
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .where('status', '!=', status)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Back to the remembered open status (new when none was remembered). */
export async function reopenTask(ctx: Ctx, id: number): Promise<void> {
  await scoped
    .update(ctx, 'tasks')
    .set({
      status: sql<string>`coalesce(reopen_status, 'new')`,
      finished_at: null,
      reopen_status: null,
      updated_at: nextStamp(),
    })
    .where('id', '=', id)
    .execute();
}

/** tasks.bulk.ts's name for the gateway's soft delete. */
export const softDeleteTasks = (ctx: Ctx, ids: readonly number[]): Promise<void> => tasks.softDelete(ctx, ids);

export async function touchTasks(ctx: Ctx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await scoped
    .update(ctx, 'tasks')
    .set({ updated_at: nextStamp() })
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .execute();
}

export async function replaceAssignees(ctx: Ctx, taskId: number, personIds: readonly number[]): Promise<void> {
  await scoped.delete(ctx, 'task_assignees').where('task_id', '=', taskId).execute();
  await addAssignee(ctx, [taskId], personIds);
}

/** Adds every person to every task (existing pairs are kept). */
export async function addAssignee(ctx: Ctx, taskIds: readonly number[], personIds: readonly number[]): Promise<void> {
  const rows = taskIds.flatMap((task_id) => personIds.map((person_id) => ({ task_id, person_id })));
  if (rows.length === 0) return;
  await scoped
    .insert(ctx, 'task_assignees', rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeAssignee(ctx: Ctx, taskIds: readonly number[], personId?: number): Promise<void> {
  if (taskIds.length === 0) return;
  let query = scoped.delete(ctx, 'task_assignees').where('task_id', 'in', [...taskIds]);
  if (personId !== undefined) query = query.where('person_id', '=', personId);
  await query.execute();
}

export async function insertComment(ctx: Ctx, taskId: number, body: string): Promise<CommentRecord> {
  return scoped
    .insert(ctx, 'task_comments', [{ task_id: taskId, person_id: ctx.actor.personId, body }])
    .returning(['id', 'task_id', 'person_id', 'body', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
}

/** The live occurrences of a recurring master. */
export async function liveOccurrences(ctx: Ctx, masterId: number) {
  return writtenTasks
    .base(ctx)
    .select(['t.id', 't.status', 't.date', 't.recurrence_date'])
    .where('t.recurrence_parent_id', '=', masterId)
    .orderBy('t.id')
    .execute();
}

/** Copies a master's assignees onto its occurrences. */
export async function copyAssignees(ctx: Ctx, fromTaskId: number, toTaskIds: readonly number[]): Promise<void> {
  if (toTaskIds.length === 0) return;
  // tenant: deliberate SQL
  await sql`insert into task_assignees (company_id, task_id, person_id)
    select ta.company_id, o.id, ta.person_id from task_assignees ta cross join unnest(${[...toTaskIds]}::int[]) as o(id)
    where ${tenant(ctx, 'ta')} and ta.task_id = ${fromTaskId} on conflict do nothing`.execute(ctx.db);
}

/** Every live recurring master of every company: the horizon maintenance serves all tenants. */
export async function recurringMasters(db: Executor): Promise<Array<{ company_id: string; id: number }>> {
  return db
    .selectFrom('tasks')
    .select(['company_id', 'id'])
    .where('is_recurring', '=', 1)
    .where('recurrence_parent_id', 'is', null)
    .where('recurrence_rule', 'is not', null)
    .where('deleted_at', 'is', null)
    .orderBy('company_id')
    .orderBy('id')
    .execute();
}

/** Which of `ids` are template (master) rows, with the template that owns each (null for a project workflow's row without a link). */
export async function templateRows(ctx: Ctx, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return scoped
    .select(ctx, 'tasks', 'mt')
    .leftJoin('workflow_master_tasks as wm', (join) =>
      join.onRef('wm.company_id', '=', 'mt.company_id').onRef('wm.task_id', '=', 'mt.id'),
    )
    .select(['mt.id', 'mt.template_kind', 'wm.template_id'])
    .where('mt.id', 'in', [...ids])
    .where('mt.template_kind', 'is not', null)
    .orderBy('mt.id')
    .execute();
}
