import { sql, type RawBuilder } from 'kysely';
import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { nextStamp } from '../../platform/sql.ts';
import { CALENDAR_LIST_OPTIONS, type CalendarEntryRecord } from './calendar.schemas.ts';

export type CalendarColumns = Pick<CalendarEntryRecord, 'type' | 'person_id' | 'status' | 'date_from' | 'date_until' | 'description'>;
export type Scope = 'company' | 'global' | 'all';

/**
 * A plain member's personal key sees their own entries and the company-wide ones (holidays, which
 * have no person); everyone else sees the whole company calendar.
 */
function calendarVisible(ctx: Ctx, alias: string): RawBuilder<boolean> {
  if (!ctx.actor.restricted) return sql<boolean>`true`;
  return sql<boolean>`(${sql.ref(`${alias}.person_id`)} = ${ctx.actor.personId} or ${sql.ref(`${alias}.person_id`)} is null)`;
}

function companyEntries(ctx: Ctx) {
  return ctx.db
    .selectFrom('calendar_entries as c')
    .select(['c.id', 'c.type', 'c.person_id', 'c.status', 'c.date_from', 'c.date_until', 'c.description', 'c.created_at', 'c.updated_at'])
    .where('c.company_id', '=', ctx.companyId)
    .where('c.deleted_at', 'is', null)
    .where(calendarVisible(ctx, 'c'));
}

/** Global public holidays in the entry shape: negative ids, so they can never collide with a company entry. */
function globalEntries(ctx: Ctx) {
  return ctx.db.selectFrom('global_holidays as g').select([
    sql<number>`-g.id`.as('id'), sql<string>`'holiday'`.as('type'), sql<number | null>`null::int`.as('person_id'),
    sql<string>`'approved'`.as('status'), 'g.date as date_from', 'g.date as date_until', sql<string | null>`g.name`.as('description'),
    'g.created_at', 'g.updated_at',
  ]);
}

function source(ctx: Ctx, scope: Scope) {
  const query = scope === 'company' ? companyEntries(ctx) : scope === 'global' ? globalEntries(ctx) : companyEntries(ctx).unionAll(globalEntries(ctx));
  return ctx.db.selectFrom(query.as('e'));
}

type Base = ReturnType<typeof source>;

function applyFilters(query: Base, filters: Record<string, unknown>): Base {
  let q = query;
  const types = splitList(filters.type as string | undefined);
  if (types) q = q.where('e.type', 'in', types);
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where('e.status', 'in', statuses);
  if (filters.person_id !== undefined) q = q.where('e.person_id', '=', filters.person_id as number);
  // The range filters select entries overlapping [date_from, date_until].
  if (filters.date_from !== undefined) q = q.where('e.date_until', '>=', filters.date_from as string);
  if (filters.date_until !== undefined) q = q.where('e.date_from', '<=', filters.date_until as string);
  return q;
}

const project = (query: Base) => query.selectAll('e');

export async function listEntries(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'calendar', params, CALENDAR_LIST_OPTIONS);
  const scope = (filters.scope as Scope | undefined) ?? 'company';
  return paginate<CalendarEntryRecord>(ctx, {
    listId: 'calendar', base: applyFilters(source(ctx, scope), filters), idColumn: 'e.id', project: project as never,
    options: CALENDAR_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findEntry(ctx: Ctx, id: number): Promise<CalendarEntryRecord | undefined> {
  return companyEntries(ctx).where('c.id', '=', id).executeTakeFirst() as Promise<CalendarEntryRecord | undefined>;
}

export async function findGlobalHoliday(ctx: Ctx, id: number): Promise<CalendarEntryRecord | undefined> {
  return globalEntries(ctx).where('g.id', '=', -id).executeTakeFirst() as Promise<CalendarEntryRecord | undefined>;
}

/** Locks the row for the rest of the transaction; undefined when absent, deleted, invisible or another tenant's. */
export async function lockEntry(ctx: Ctx, id: number): Promise<CalendarEntryRecord | undefined> {
  return companyEntries(ctx).where('c.id', '=', id).forUpdate().executeTakeFirst() as Promise<CalendarEntryRecord | undefined>;
}

export async function insertEntry(ctx: Ctx, values: CalendarColumns): Promise<number> {
  const row = await ctx.db.insertInto('calendar_entries').values({ ...values, company_id: ctx.companyId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEntry(ctx: Ctx, id: number, values: Partial<CalendarColumns>): Promise<void> {
  await ctx.db.updateTable('calendar_entries').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteEntry(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'calendar_entries', id);
}
