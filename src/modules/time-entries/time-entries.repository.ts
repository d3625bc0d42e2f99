import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { scoped, tenantTable, type NewRow } from '../../platform/tenant-table.ts';
import { taskVisible, timeEntryVisible } from '../../platform/visibility.ts';
import type { DateTimeInput } from './time-entries.rules.ts';
import { TIME_ENTRY_LIST_OPTIONS, type TimeEntryRecord } from './time-entries.schemas.ts';

export const timeEntries = tenantTable('time_entries', { alias: 'te', softDelete: true, visible: timeEntryVisible });

/** Live, visible entries with their task (the record shows the task's title, client and topic). */
function base(ctx: Ctx) {
  return timeEntries
    .base(ctx)
    .innerJoin('tasks as t', (join) =>
      join.onRef('t.company_id', '=', 'te.company_id').onRef('t.id', '=', 'te.task_id'),
    );
}
type Query = ReturnType<typeof base>;

function project(query: Query) {
  return query.select([
    'te.id',
    'te.task_id',
    't.title as task_name',
    't.client_id',
    't.topic_id',
    'te.person_id',
    'te.start',
    'te.end',
    'te.duration',
    'te.billable',
    'te.description',
    'te.created_at',
    'te.updated_at',
  ]);
}

/** An instant from caller text: a naive value is wall-clock time in the company's zone (PostgreSQL applies its DST rules). */
export function instant(ctx: Ctx, value: DateTimeInput): RawBuilder<string> {
  return value.naive
    ? sql<string>`(${value.text}::timestamp at time zone ${ctx.company.timezone})`
    : sql<string>`${value.text}::timestamptz`;
}

/**
 * All the instants of a request in one round trip, truncated to milliseconds so that what is
 * stored is exactly what reads (and list cursors) show.
 */
export async function resolveInstants(ctx: Ctx, values: readonly DateTimeInput[]): Promise<string[]> {
  if (values.length === 0) return [];
  const result = await sql<{ v: string }>`select date_trunc('milliseconds',
      case when u.naive then u.txt::timestamp at time zone ${ctx.company.timezone} else u.txt::timestamptz end) as v
    from unnest(${values.map((v) => v.text)}::text[], ${values.map((v) => v.naive)}::boolean[]) with ordinality as u(txt, naive, i)
    order by u.i`.execute(ctx.db);
  return result.rows.map((r) => r.v);
}

function applyFilters(ctx: Ctx, query: Query, filters: Record<string, unknown>) {
  let q = query;
  if (filters.task_id !== undefined) q = q.where('te.task_id', '=', filters.task_id as number);
  if (filters.person_id !== undefined) q = q.where('te.person_id', '=', filters.person_id as number);
  if (filters.client_id !== undefined) q = q.where('t.client_id', '=', filters.client_id as number);
  if (filters.topic_id !== undefined) q = q.where('t.topic_id', '=', filters.topic_id as number);
  if (filters.billable !== undefined)
    q = q.where('te.billable', '=', ['1', 'true'].includes(String(filters.billable)) ? 1 : 0);
  if (filters.start_from !== undefined)
    q = q.where(sql<boolean>`te.start >= ${instant(ctx, filters.start_from as DateTimeInput)}`);
  if (filters.start_to !== undefined)
    q = q.where(sql<boolean>`te.start <= ${instant(ctx, filters.start_to as DateTimeInput)}`);
  return q;
}

/** `filters` carries start_from/start_to already parsed (the cursor keeps the caller's raw text). */
export function listEntries(
  ctx: Ctx,
  params: object,
  parse: (filters: Record<string, unknown>) => Record<string, unknown>,
) {
  return listPage<TimeEntryRecord>(ctx, {
    listId: 'time-entries',
    params,
    options: TIME_ENTRY_LIST_OPTIONS,
    idColumn: 'te.id',
    project,
    base: (filters) => applyFilters(ctx, base(ctx), parse(filters)),
  });
}

/** Records by id, in the order of `ids`. */
export async function findEntries(ctx: Ctx, ids: readonly number[]): Promise<TimeEntryRecord[]> {
  if (ids.length === 0) return [];
  const rows = (await project(
    base(ctx).where('te.id', '=', sql<number>`any(${[...ids]}::int[])`),
  ).execute()) as TimeEntryRecord[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is TimeEntryRecord => r !== undefined);
}

export async function findEntry(ctx: Ctx, id: number): Promise<TimeEntryRecord | undefined> {
  return (await findEntries(ctx, [id]))[0];
}

/** Locks the entry for the rest of the transaction; undefined when absent, deleted or invisible. */
export async function lockEntry(ctx: Ctx, id: number) {
  return timeEntries
    .base(ctx)
    .where('te.id', '=', id)
    .select(['te.id', 'te.task_id', 'te.person_id', 'te.start', 'te.end', 'te.duration'])
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Tasks among `ids` that can carry time: live, not a workflow-template row, visible to the key.
 * FOR SHARE keeps them from being deleted until the entries are committed.
 */
export async function usableTaskIds(ctx: Ctx, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await scoped
    .select(ctx, 'tasks', 't')
    .select('t.id')
    .where('t.id', '=', sql<number>`any(${[...ids]}::int[])`)
    .where('t.deleted_at', 'is', null)
    .where('t.template_kind', 'is', null)
    .where(taskVisible(ctx, 't'))
    .forShare()
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Persons among `ids` who are members of the company (of any member status). */
export async function memberPersonIds(ctx: Ctx, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await scoped
    .select(ctx, 'members', 'm')
    .select('m.person_id')
    .where('m.person_id', '=', sql<number>`any(${[...ids]}::int[])`)
    .execute();
  return new Set(rows.map((r) => r.person_id));
}

/** person id -> id of their running entry, among `personIds`, leaving out `exceptId`. */
export async function runningEntries(
  ctx: Ctx,
  personIds: readonly number[],
  exceptId?: number,
): Promise<Map<number, number>> {
  if (personIds.length === 0) return new Map();
  let query = scoped
    .select(ctx, 'time_entries', 'te')
    .select(['te.id', 'te.person_id'])
    .where('te.person_id', '=', sql<number>`any(${[...personIds]}::int[])`)
    .where('te.end', 'is', null)
    .where('te.deleted_at', 'is', null);
  if (exceptId !== undefined) query = query.where('te.id', '!=', exceptId);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.person_id, r.id]));
}

/** One multi-row insert; ids come back in the order of `rows`. */
export async function insertEntries(ctx: Ctx, rows: ReadonlyArray<NewRow<'time_entries'>>): Promise<number[]> {
  const inserted = await scoped.insert(ctx, 'time_entries', rows).returning('id').execute();
  return inserted.map((r) => r.id);
}

/**
 * For each of `ids`: the other live entries of the same person whose span meets it. A running
 * entry spans to infinity, since where it will end is unknown. Spans are half-open, so entries
 * that only touch (one ends when the next starts) do not overlap. The GiST index on
 * (company, person, span) answers each lookup without reading the person's other entries.
 */
export async function overlaps(ctx: Ctx, ids: readonly number[]): Promise<Map<number, number[]>> {
  if (ids.length === 0) return new Map();
  const company = ctx.companyId;
  // tenant: deliberate SQL
  const result = await sql<{ id: number; others: number[] }>`with n as (
      select id, person_id, tstzrange(start, coalesce("end", 'infinity'), '[)') as span
      from time_entries where company_id = ${company} and id = any(${[...ids]}::int[]))
    select n.id, array(
        select o.id from time_entries o
        where o.company_id = ${company} and o.person_id = n.person_id and o.deleted_at is null and o.id <> n.id
          and tstzrange(o.start, coalesce(o."end", 'infinity'), '[)') && n.span
        order by o.id) as others
    from n`.execute(ctx.db);
  return new Map(result.rows.filter((r) => r.others.length > 0).map((r) => [r.id, r.others]));
}
