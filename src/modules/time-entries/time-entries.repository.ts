import { sql, type RawBuilder } from 'kysely';
import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { nextStamp } from '../../platform/sql.ts';
import { taskVisible, timeEntryVisible } from '../../platform/visibility.ts';
import type { DateTimeInput } from './time-entries.rules.ts';
import { TIME_ENTRY_LIST_OPTIONS, type TimeEntryRecord } from './time-entries.schemas.ts';

export interface EntryColumns {
  task_id: number;
  person_id: number;
  start: string;
  end: string | null;
  duration: number | null;
  billable: number;
  description: string;
}

function base(ctx: Ctx) {
  return ctx.db
    .selectFrom('time_entries as te')
    .innerJoin('tasks as t', (join) => join.onRef('t.company_id', '=', 'te.company_id').onRef('t.id', '=', 'te.task_id'))
    .where('te.company_id', '=', ctx.companyId)
    .where('te.deleted_at', 'is', null)
    .where(timeEntryVisible(ctx, 'te'));
}

function project(query: ReturnType<typeof base>) {
  return query.select([
    'te.id', 'te.task_id', 't.title as task_name', 't.client_id', 't.topic_id', 'te.person_id', 'te.start', 'te.end', 'te.duration',
    'te.billable', 'te.description', 'te.created_at', 'te.updated_at',
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

function applyFilters(ctx: Ctx, query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  let q = query;
  if (filters.task_id !== undefined) q = q.where('te.task_id', '=', filters.task_id as number);
  if (filters.person_id !== undefined) q = q.where('te.person_id', '=', filters.person_id as number);
  if (filters.client_id !== undefined) q = q.where('t.client_id', '=', filters.client_id as number);
  if (filters.topic_id !== undefined) q = q.where('t.topic_id', '=', filters.topic_id as number);
  if (filters.billable !== undefined) q = q.where('te.billable', '=', ['1', 'true'].includes(String(filters.billable)) ? 1 : 0);
  if (filters.start_from !== undefined) q = q.where(sql<boolean>`te.start >= ${instant(ctx, filters.start_from as DateTimeInput)}`);
  if (filters.start_to !== undefined) q = q.where(sql<boolean>`te.start <= ${instant(ctx, filters.start_to as DateTimeInput)}`);
  return q;
}

/** `filters` carries start_from/start_to already parsed (the cursor keeps the caller's raw text). */
export async function listEntries(ctx: Ctx, params: object, parse: (filters: Record<string, unknown>) => Record<string, unknown>) {
  const { filters, sort, after } = resolveList(ctx, 'time-entries', params, TIME_ENTRY_LIST_OPTIONS);
  return paginate<TimeEntryRecord>(ctx, {
    listId: 'time-entries', base: applyFilters(ctx, base(ctx), parse(filters)), idColumn: 'te.id', project: project as never,
    options: TIME_ENTRY_LIST_OPTIONS, params, filters, sort, after,
  });
}

/** Records by id, in the order of `ids`. */
export async function findEntries(ctx: Ctx, ids: readonly number[]): Promise<TimeEntryRecord[]> {
  if (ids.length === 0) return [];
  const rows = await project(base(ctx).where('te.id', '=', sql<number>`any(${[...ids]}::int[])`)).execute() as TimeEntryRecord[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is TimeEntryRecord => r !== undefined);
}

export async function findEntry(ctx: Ctx, id: number): Promise<TimeEntryRecord | undefined> {
  return (await findEntries(ctx, [id]))[0];
}

/** Locks the entry for the rest of the transaction; undefined when absent, deleted or invisible. */
export async function lockEntry(ctx: Ctx, id: number) {
  return ctx.db.selectFrom('time_entries as te')
    .where('te.company_id', '=', ctx.companyId).where('te.deleted_at', 'is', null).where('te.id', '=', id).where(timeEntryVisible(ctx, 'te'))
    .select(['te.id', 'te.task_id', 'te.person_id', 'te.start', 'te.end', 'te.duration'])
    .forUpdate().executeTakeFirst();
}

/**
 * Tasks among `ids` that can carry time: live, not a workflow-template row, visible to the key.
 * FOR SHARE keeps them from being deleted until the entries are committed.
 */
export async function usableTaskIds(ctx: Ctx, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db.selectFrom('tasks as t').select('t.id')
    .where('t.company_id', '=', ctx.companyId).where('t.id', '=', sql<number>`any(${[...ids]}::int[])`)
    .where('t.deleted_at', 'is', null).where('t.template_kind', 'is', null).where(taskVisible(ctx, 't'))
    .forShare().execute();
  return new Set(rows.map((r) => r.id));
}

/** Persons among `ids` who are members of the company (of any member status). */
export async function memberPersonIds(ctx: Ctx, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db.selectFrom('members').select('person_id')
    .where('company_id', '=', ctx.companyId).where('person_id', '=', sql<number>`any(${[...ids]}::int[])`).execute();
  return new Set(rows.map((r) => r.person_id));
}

/** person id -> id of their running entry, among `personIds`, leaving out `exceptId`. */
export async function runningEntries(ctx: Ctx, personIds: readonly number[], exceptId?: number): Promise<Map<number, number>> {
  if (personIds.length === 0) return new Map();
  let query = ctx.db.selectFrom('time_entries').select(['id', 'person_id'])
    .where('company_id', '=', ctx.companyId).where('person_id', '=', sql<number>`any(${[...personIds]}::int[])`)
    .where('end', 'is', null).where('deleted_at', 'is', null);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.person_id, r.id]));
}

/** One multi-row insert; ids come back in the order of `rows`. */
export async function insertEntries(ctx: Ctx, rows: readonly EntryColumns[]): Promise<number[]> {
  const inserted = await ctx.db.insertInto('time_entries')
    .values(rows.map((row) => ({ ...row, company_id: ctx.companyId })))
    .returning('id').execute();
  return inserted.map((r) => r.id);
}

export async function updateEntry(ctx: Ctx, id: number, values: Partial<EntryColumns>): Promise<void> {
  await ctx.db.updateTable('time_entries').set({ ...values, updated_at: nextStamp() })
    .where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteEntry(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'time_entries', id);
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
