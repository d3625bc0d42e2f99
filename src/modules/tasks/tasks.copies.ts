import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { nextStamp } from '../../platform/sql.ts';
import { companyValue, scoped, tenant } from '../../platform/tenant-table.ts';
import { timeLoggedSql } from '../time-entries/index.ts';
import { OPEN_STATUSES } from './tasks.schemas.ts';

// Live tasks kept in step with a source task (the workflow templates' master tasks), written set-based: one
// statement for a whole chunk, never one round trip per task. Which of these writes fire events is the caller's
// to decide (the spec lists some as firing nothing), so none is recorded here. Every statement is raw SQL and
// names the company through tenant(ctx, alias) and companyValue(ctx).

/** What a copy takes from its source, when made and at each refresh. */
const COPIED = [
  'title',
  'description',
  'type',
  'topic_id',
  'is_important',
  'is_extra',
  'estimation',
  'workflow_role_ids',
];
const FIELDS = sql.raw(COPIED.join(', '));
const fieldsOf = (alias: string) => sql.raw(COPIED.map((c) => `${alias}.${c}`).join(', '));

export interface TaskCopy {
  sourceId: number;
  clientId: number;
  projectId: number | null;
  /** Days from `today` to the due date; null: no due date. */
  dueInDays: number | null;
}

/**
 * One live task per copy, in the order given, from its source when the source is live (a deleted source makes
 * none). Due dates count from `today` in the company's time zone. Answers each task made with its source and client.
 */
export async function createCopies(
  ctx: Ctx,
  copies: readonly TaskCopy[],
  today: string,
): Promise<{ id: number; source_id: number; client_id: number }[]> {
  if (copies.length === 0) return [];
  const tz = ctx.company.timezone;
  const column = <K extends keyof TaskCopy>(key: K) => copies.map((c) => c[key]);
  const result = await sql<{ id: number; source_id: number; client_id: number }>`with src as materialized (
      select nextval(pg_get_serial_sequence('tasks', 'id'))::int as new_id, x.client_id, x.project_id, x.source_id,
        x.due_in_days, ${fieldsOf('mt')}
      from unnest(${column('clientId')}::int[], ${column('projectId')}::int[], ${column('sourceId')}::int[],
        ${column('dueInDays')}::int[]) with ordinality as x(client_id, project_id, source_id, due_in_days, n)
      join tasks mt on ${tenant(ctx, 'mt')} and mt.id = x.source_id and mt.deleted_at is null
      order by x.n),
    ins as (insert into tasks (company_id, id, client_id, project_id, topic_id, title, description, type, is_important,
        is_extra, estimation, workflow_role_ids, timezone, due_date, has_due_date)
      select ${companyValue(ctx)}, new_id, client_id, project_id, topic_id, title, description, type, is_important,
        is_extra, estimation, workflow_role_ids, ${tz},
        case when due_in_days is not null then (${today}::date + due_in_days)::timestamp at time zone ${tz} end,
        case when due_in_days is not null then 1 else 0 end
      from src)
    select new_id as id, source_id, client_id from src order by new_id`.execute(ctx.db);
  return result.rows;
}

/** Copies paired with their sources, as the caller keeps the pairs. */
export interface CopyPairs {
  taskIds: readonly number[];
  sourceIds: readonly number[];
}

const pairsOf = (pairs: CopyPairs) =>
  sql`select * from unnest(${[...pairs.taskIds]}::int[], ${[...pairs.sourceIds]}::int[]) as p(task_id, source_id)`;

/** Open copies (new, in progress) of a live source that changed take the source's fields; answers their ids. */
export async function refreshCopies(ctx: Ctx, pairs: CopyPairs): Promise<number[]> {
  if (pairs.taskIds.length === 0) return [];
  const source = sql`(select ${fieldsOf('mt')} from tasks mt where mt.company_id = it.company_id and mt.id = p.source_id)`;
  const result = await sql<{ id: number }>`update tasks it set (${FIELDS}) = ${source},
      updated_at = ${nextStamp('it.updated_at')}
    from (${pairsOf(pairs)}) p
    where ${tenant(ctx, 'it')} and it.id = p.task_id
      and it.deleted_at is null and it.status in (${sql.join([...OPEN_STATUSES])})
      and row(${fieldsOf('it')}) is distinct from (select row(${fieldsOf('mt')}) from tasks mt
        where mt.company_id = it.company_id and mt.id = p.source_id)
      and exists (select 1 from tasks mt where mt.company_id = it.company_id and mt.id = p.source_id
        and mt.deleted_at is null)
    returning it.id`.execute(ctx.db);
  return result.rows.map((r) => r.id).sort((a, b) => a - b);
}

/** A task nobody has started: still new, no live time logged on it. */
const untouched = (alias: string) => sql`${sql.ref(`${alias}.status`)} = 'new' and not ${timeLoggedSql(alias)}`;

/** Untouched copies whose source was deleted go too; answers their ids. */
export async function dropCopiesOfDeleted(ctx: Ctx, pairs: CopyPairs): Promise<number[]> {
  if (pairs.taskIds.length === 0) return [];
  const result = await sql<{
    id: number;
  }>`update tasks it set deleted_at = now(), updated_at = ${nextStamp('it.updated_at')}
    from (${pairsOf(pairs)}) p
    where ${tenant(ctx, 'it')} and it.id = p.task_id
      and it.deleted_at is null and ${untouched('it')}
      and exists (select 1 from tasks mt where mt.company_id = it.company_id and mt.id = p.source_id
        and mt.deleted_at is not null)
    returning it.id`.execute(ctx.db);
  return result.rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Of these tasks, the live untouched ones are deleted; the others stay as ordinary tasks. */
export async function deleteUntouched(ctx: Ctx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`update tasks it set deleted_at = now(), updated_at = ${nextStamp('it.updated_at')}
    where ${tenant(ctx, 'it')} and it.id = any(${[...ids]}::int[])
      and it.deleted_at is null and ${untouched('it')}`.execute(ctx.db);
}

// ---- source (master) tasks: template rows, marked by template_kind, hanging off the template's plan client ----

/** A new source task of a template engine; `columns` are task columns (title, description, type...). Answers its id. */
export async function insertSourceTask(
  ctx: Ctx,
  kind: 'workflow_template' | 'project_workflow',
  planClientId: number | null,
  columns: Record<string, unknown> & { title: string },
): Promise<number> {
  const task = await scoped
    .insert(ctx, 'tasks', [{ ...columns, template_kind: kind, client_id: planClientId }])
    .returning('id')
    .executeTakeFirstOrThrow();
  return task.id;
}

/** Changes a source task's columns; its updated_at moves on even with none, so a push sees the change. */
export async function updateSourceTask(ctx: Ctx, taskId: number, columns: Record<string, unknown>): Promise<void> {
  await scoped
    .update(ctx, 'tasks')
    .set({ ...columns, updated_at: nextStamp() })
    .where('id', '=', taskId)
    .execute();
}

export async function deleteSourceTasks(ctx: Ctx, taskIds: readonly number[]): Promise<void> {
  if (taskIds.length === 0) return;
  await scoped
    .update(ctx, 'tasks')
    .set({ deleted_at: sql<string>`now()`, updated_at: nextStamp() })
    .where('id', 'in', [...taskIds])
    .where('deleted_at', 'is', null)
    .execute();
}

/** Task rows of the company (alias t), deleted and invisible ones included: a workflow engine reads its source rows from here. */
export const sourceTaskRows = (ctx: Ctx) => scoped.select(ctx, 'tasks', 't');
