import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { ShapeCache } from '../../platform/query-cache.ts';
import { toIso } from '../../db/database.ts';
import { lockedPeriodsQuery, workClient, workClientIs, type BillingLock } from '../billing/index.ts';
import { memberPersonIdsSql } from '../members/index.ts';
import { scoped, tenantTable, type NewRow, tenant } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';
import type { DateTimeInput } from './time-entries.rules.ts';
import { TIME_ENTRY_LIST_OPTIONS, type TimeEntryListParams, type TimeEntryRecord } from './time-entries.schemas.ts';

export const timeEntries = tenantTable('time_entries', { alias: 'te', softDelete: true });

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
    workClient('te', 't').as('client_id'),
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

/** The list's filters as the query reads them: the instants parsed (the cursor keeps the caller's raw text). */
export type EntryFilters = Omit<ListFilters<TimeEntryListParams>, 'start_from' | 'start_to'> & {
  start_from?: DateTimeInput | undefined;
  start_to?: DateTimeInput | undefined;
};

function applyFilters(ctx: Ctx, query: Query, filters: EntryFilters) {
  let q = query;
  if (filters.task_id !== undefined) q = q.where('te.task_id', '=', filters.task_id);
  if (filters.person_id !== undefined) q = q.where('te.person_id', '=', filters.person_id);
  if (filters.client_id !== undefined) q = q.where(workClientIs('te', 't', ctx.companyId, filters.client_id));
  if (filters.topic_id !== undefined) q = q.where('t.topic_id', '=', filters.topic_id);
  if (filters.billable !== undefined) q = q.where('te.billable', '=', ['1', 'true'].includes(filters.billable) ? 1 : 0);
  if (filters.start_from !== undefined) q = q.where(sql<boolean>`te.start >= ${instant(ctx, filters.start_from)}`);
  if (filters.start_to !== undefined) q = q.where(sql<boolean>`te.start <= ${instant(ctx, filters.start_to)}`);
  return q;
}

const listShapes = new ShapeCache();

/** Two stages: `parse` turns the effective filters (a cursor's own included) into what the query reads. */
export function listEntries(
  ctx: Ctx,
  params: TimeEntryListParams,
  parse: (filters: ListFilters<TimeEntryListParams>) => EntryFilters,
) {
  return listPage<TimeEntryRecord, TimeEntryListParams>(ctx, {
    listId: 'time-entries',
    params,
    options: TIME_ENTRY_LIST_OPTIONS,
    idColumn: 'te.id',
    project,
    base: (filters, c) => applyFilters(c, base(c), parse(filters)),
    cache: { shapes: listShapes, key: '' },
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

/**
 * Records by id, in the order of `ids`, each with the other live entries of its person whose span meets
 * it: the read-back of a write in one query. A running entry spans to infinity, since where it will end is
 * unknown. Spans are half-open, so entries that only touch (one ends when the next starts) do not overlap.
 * The GiST index on (company, person, span) answers each lookup without reading the person's other entries.
 */
export async function findEntriesWithOverlaps(
  ctx: Ctx,
  ids: readonly number[],
): Promise<Array<{ record: TimeEntryRecord; overlapping: number[] }>> {
  if (ids.length === 0) return [];
  const span = (alias: string) =>
    sql`tstzrange(${sql.ref(`${alias}.start`)}, coalesce(${sql.ref(`${alias}.end`)}, 'infinity'), '[)')`;
  const rows = (await project(base(ctx).where('te.id', '=', sql<number>`any(${[...ids]}::int[])`))
    .select(
      sql<number[]>`array(select o.id from time_entries o
        where o.company_id = te.company_id and o.person_id = te.person_id and o.deleted_at is null and o.id <> te.id
          and ${span('o')} && ${span('te')} order by o.id)`.as('overlapping'),
    )
    .execute()) as Array<TimeEntryRecord & { overlapping: number[] }>;
  const byId = new Map(rows.map(({ overlapping, ...record }) => [record.id, { record, overlapping }]));
  return ids.flatMap((id) => byId.get(id) ?? []);
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

export interface CheckedInputs {
  /** The instants of `values`, in their order, truncated to milliseconds (what reads and cursors show). */
  instants: string[];
  /**
   * Tasks among `tasks` that can carry time: live, not a workflow-template row, visible to the key; FOR SHARE
   * keeps them from being deleted until the entries are committed.
   */
  tasks: Set<number>;
  /** Persons among `people` who are members of the company (of any member status). */
  people: Set<number>;
  /** person id -> id of their running entry, among `timerPeople`. */
  running: Map<number, number>;
  /** By entry index: the lock of the period its start lands in (billing's lockedPeriods). */
  locks: Map<number, BillingLock>;
}

/** An entry to look a period lock up for: its task, and which of `values` is its start (0-based). */
export interface LockProbe {
  index: number;
  task_id: number;
  start: number;
}

const NOTHING_TO_CHECK = { tasks: [], people: [], timerPeople: [] };

/**
 * Everything a write checks before it writes, in one round trip: instants (a naive value is wall-clock time in
 * the company's zone, PostgreSQL applying its DST rules), tasks, people, running timers, and the billing locks
 * of the periods the entries land in. Nothing asked, no query.
 */
export async function checkInputs(
  ctx: Ctx,
  values: readonly DateTimeInput[],
  ids: { tasks: readonly number[]; people: readonly number[]; timerPeople: readonly number[] } = NOTHING_TO_CHECK,
  probes: readonly LockProbe[] = [],
): Promise<CheckedInputs> {
  if (values.length + ids.tasks.length + ids.people.length + ids.timerPeople.length + probes.length === 0)
    return { instants: [], tasks: new Set(), people: new Set(), running: new Map(), locks: new Map() };
  const probed = sql`(select p.task_id, v.at, p.n from unnest(${probes.map((p) => p.task_id)}::int[],
      ${probes.map((p) => p.start + 1)}::int[], ${probes.map((p) => p.index + 1)}::int[]) as p(task_id, k, n)
    join instants v on v.i = p.k)`;
  // tenant: deliberate SQL (every table is filtered by company_id)
  const result = await sql<{
    instants: string[];
    tasks: number[];
    people: number[];
    running: Record<string, number>;
    locks: Array<BillingLock & { n: number }>;
  }>`
    with usable as (
      select t.id from tasks t
      where ${tenant(ctx, 't')} and t.id = any(${[...ids.tasks]}::int[]) and t.deleted_at is null
        and t.template_kind is null and ${rowVisible(ctx, 'tasks', 't')}
      for share),
    instants as (
      select u.i, date_trunc('milliseconds', case when u.naive then u.txt::timestamp at time zone ${ctx.company.timezone}
          else u.txt::timestamptz end) as at
      from unnest(${values.map((v) => v.text)}::text[], ${values.map((v) => v.naive)}::boolean[]) with ordinality as u(txt, naive, i))
    select array(select at::text from instants order by i) as instants,
      array(select id from usable) as tasks,
      array(${memberPersonIdsSql(ctx, ids.people)}) as people,
      (select coalesce(json_object_agg(te.person_id, te.id), '{}') from time_entries te
        where ${tenant(ctx, 'te')} and te.person_id = any(${[...ids.timerPeople]}::int[]) and te."end" is null
          and te.deleted_at is null) as running,
      (select coalesce(json_agg(l), '[]') from (${lockedPeriodsQuery(ctx, probed)}) l) as locks`.execute(ctx.db);
  const row = result.rows[0]!;
  return {
    instants: row.instants.map(toIso),
    tasks: new Set(row.tasks),
    people: new Set(row.people),
    running: new Map(Object.entries(row.running).map(([person, id]) => [Number(person), id])),
    locks: new Map(row.locks.map(({ n, ...lock }) => [n - 1, lock])),
  };
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

/**
 * One multi-row insert and its read-back in one statement: the records in the order of `rows` (ids grow in
 * VALUES order), each with the live entries of its person whose span meets it, as findEntriesWithOverlaps
 * answers after an insert. The statement's own snapshot does not see the rows it inserts, so the overlaps
 * among the new rows (a bulk) come from the CTE itself.
 */
export async function insertEntriesWithOverlaps(
  ctx: Ctx,
  rows: ReadonlyArray<NewRow<'time_entries'>>,
): Promise<Array<{ record: TimeEntryRecord; overlapping: number[] }>> {
  if (rows.length === 0) return [];
  const span = (alias: string) =>
    sql`tstzrange(${sql.ref(`${alias}.start`)}, coalesce(${sql.ref(`${alias}.end`)}, 'infinity'), '[)')`;
  const query = ctx.db
    .with('new_entries', () => scoped.insert(ctx, 'time_entries', rows).returningAll())
    .selectFrom('new_entries as te')
    .innerJoin('tasks as t', (join) =>
      join.onRef('t.company_id', '=', 'te.company_id').onRef('t.id', '=', 'te.task_id'),
    );
  // tenant: deliberate SQL (the existing entries are filtered by the new row's company_id)
  const found = (await project(query as unknown as Query)
    .select(
      sql<number[]>`array(select o.id from time_entries o
          where o.company_id = te.company_id and o.person_id = te.person_id and o.deleted_at is null
            and ${span('o')} && ${span('te')}
        union all select n.id from new_entries n
          where n.person_id = te.person_id and n.id <> te.id and ${span('n')} && ${span('te')}
        order by 1)`.as('overlapping'),
    )
    .orderBy('te.id')
    .execute()) as Array<TimeEntryRecord & { overlapping: number[] }>;
  return found.map(({ overlapping, ...record }) => ({ record, overlapping }));
}
