import type { CalendarListParams } from './calendar.schemas.ts';
import { sql, type AliasedExpression, type InferResult } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { tenantTable } from '../../platform/tenant-table.ts';
import { firstRecord } from '../../platform/sql.ts';
import {
  CALENDAR_LIST_OPTIONS,
  type CalendarEntryRecord,
  type CalendarStatus,
  type CalendarType,
} from './calendar.schemas.ts';

export type Scope = 'company' | 'global' | 'all';

/** A plain member's personal key sees their own entries and the holidays (the `visibility` its module declares). */
export const calendar = tenantTable('calendar_entries', { alias: 'c', softDelete: true });

function companyEntries(ctx: Ctx) {
  return calendar
    .base(ctx)
    .select([
      'c.id',
      'c.type',
      'c.person_id',
      'c.status',
      'c.date_from',
      'c.date_until',
      'c.description',
      'c.created_at',
      'c.updated_at',
    ]);
}

/**
 * Global public holidays in the entry shape: negative ids, so they can never collide with a company entry.
 * The constant type and status are typed as the entry's values, so the union with company entries type-checks.
 */
function globalEntries(ctx: Ctx) {
  return ctx.db
    .selectFrom('global_holidays as g')
    .select([
      sql<number>`-g.id`.as('id'),
      sql<CalendarType>`'holiday'`.as('type'),
      sql<number | null>`null::int`.as('person_id'),
      sql<CalendarStatus>`'approved'`.as('status'),
      'g.date as date_from',
      'g.date as date_until',
      sql<string | null>`g.name`.as('description'),
      'g.created_at',
      'g.updated_at',
    ]);
}

type EntryRow = InferResult<ReturnType<typeof companyEntries>>[number];

function entries(ctx: Ctx, scope: Scope): AliasedExpression<EntryRow, 'e'> {
  if (scope === 'company') return companyEntries(ctx).as('e');
  if (scope === 'global') return globalEntries(ctx).as('e');
  return companyEntries(ctx).unionAll(globalEntries(ctx)).as('e');
}

function source(ctx: Ctx, scope: Scope) {
  return ctx.db.selectFrom(entries(ctx, scope));
}

type Base = ReturnType<typeof source>;

function applyFilters(query: Base, filters: ListFilters<CalendarListParams>): Base {
  let q = query;
  // The query schema allows only the listed values (EnumList).
  const types = splitList(filters.type) as CalendarType[] | undefined;
  if (types) q = q.where('e.type', 'in', types);
  const statuses = splitList(filters.status) as CalendarStatus[] | undefined;
  if (statuses) q = q.where('e.status', 'in', statuses);
  if (filters.person_id !== undefined) q = q.where('e.person_id', '=', filters.person_id);
  // The range filters select entries overlapping [date_from, date_until].
  if (filters.date_from !== undefined) q = q.where('e.date_until', '>=', filters.date_from);
  if (filters.date_until !== undefined) q = q.where('e.date_from', '<=', filters.date_until);
  return q;
}

const project = (query: Base) => query.selectAll('e');

export function listEntries(ctx: Ctx, params: CalendarListParams) {
  return listPage<CalendarEntryRecord, CalendarListParams>(ctx, {
    listId: 'calendar',
    params,
    options: CALENDAR_LIST_OPTIONS,
    idColumn: 'e.id',
    project,
    base: (filters) => applyFilters(source(ctx, filters.scope ?? 'company'), filters),
  });
}

export async function findEntry(ctx: Ctx, id: number): Promise<CalendarEntryRecord | undefined> {
  return firstRecord<CalendarEntryRecord>(companyEntries(ctx).where('c.id', '=', id));
}

export async function findGlobalHoliday(ctx: Ctx, id: number): Promise<CalendarEntryRecord | undefined> {
  return firstRecord<CalendarEntryRecord>(globalEntries(ctx).where('g.id', '=', -id));
}

/** The whole entry, locked for the rest of the transaction (the service's rules read its type and status). */
export async function lockEntry(ctx: Ctx, id: number): Promise<CalendarEntryRecord | undefined> {
  return firstRecord<CalendarEntryRecord>(companyEntries(ctx).where('c.id', '=', id).forUpdate());
}
