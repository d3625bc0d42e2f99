import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { moneyOut } from '../../platform/money.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { AGREEMENT_LIST_OPTIONS, type AgreementListParams, type AgreementRecord } from './agreements.schemas.ts';

export const agreements = tenantTable('agreements', {
  alias: 'a',
  lockColumns: ['person_id', 'date_from', 'date_until', 'weekly_hours', 'work_days'],
});
type Query = BaseQuery<'agreements', 'a'>;
type AgreementRow = Omit<AgreementRecord, 'cost_rate' | 'weekly_hours'> & { cost_rate: string; weekly_hours: string };

export interface LockedAgreement {
  id: number;
  updated_at: string;
  person_id: number;
  date_from: string;
  date_until: string | null;
  weekly_hours: string;
  work_days: number[];
}

const COLUMNS = [
  'a.id',
  'a.person_id',
  'a.date_from',
  'a.date_until',
  'a.cost_type',
  'a.cost_rate',
  'a.weekly_hours',
  'a.work_days',
  'a.created_at',
  'a.updated_at',
] as const;

function project(query: Query) {
  return query.select(COLUMNS);
}

/** numeric text → JSON numbers: 4 (rate) and 2 (hours) decimals always have an exact shortest decimal form. */
function toRecord(row: AgreementRow): AgreementRecord {
  return { ...row, cost_rate: moneyOut(row.cost_rate)!, weekly_hours: moneyOut(row.weekly_hours)! };
}

/** The window filters select agreements whose period overlaps [date_from, date_until] (an open end overlaps all). */
function applyFilters(query: Query, filters: ListFilters<AgreementListParams>, personId: number | undefined) {
  let q = query;
  const person = personId ?? filters.person_id;
  if (person !== undefined) q = q.where('a.person_id', '=', person);
  if (filters.date_until !== undefined) q = q.where('a.date_from', '<=', filters.date_until);
  if (filters.date_from !== undefined) {
    const from = filters.date_from;
    q = q.where((eb) => eb.or([eb('a.date_until', 'is', null), eb('a.date_until', '>=', from)]));
  }
  return q;
}

/** The company's agreements, or one person's (the member routes). */
export async function listAgreements(ctx: Ctx, params: AgreementListParams, personId?: number) {
  const page = await listPage<AgreementRow, AgreementListParams>(ctx, {
    listId: personId === undefined ? 'agreements' : `person-agreements:${personId}`,
    params,
    options: AGREEMENT_LIST_OPTIONS,
    idColumn: 'a.id',
    project,
    base: (filters) => applyFilters(agreements.base(ctx), filters, personId),
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

export async function findAgreement(ctx: Ctx, id: number): Promise<AgreementRecord | undefined> {
  const row = (await project(agreements.base(ctx).where('a.id', '=', id)).executeTakeFirst()) as
    AgreementRow | undefined;
  return row && toRecord(row);
}

export const lockAgreement = (ctx: Ctx, id: number) => agreements.lock(ctx, id) as Promise<LockedAgreement | undefined>;

/** The person's other agreements whose period overlaps [dateFrom, dateUntil] (null: open-ended), oldest first. */
export async function overlappingIds(
  ctx: Ctx,
  personId: number,
  dateFrom: string,
  dateUntil: string | null,
  exceptId: number,
): Promise<number[]> {
  let query = agreements
    .base(ctx)
    .where('a.person_id', '=', personId)
    .where('a.id', '<>', exceptId)
    .where((eb) => eb.or([eb('a.date_until', 'is', null), eb('a.date_until', '>=', dateFrom)]));
  if (dateUntil !== null) query = query.where('a.date_from', '<=', dateUntil);
  const rows = await query.select('a.id').orderBy('a.date_from').orderBy('a.id').execute();
  return rows.map((row) => row.id);
}

/**
 * A delete moves the row to agreements_deleted and removes it from agreements in the same transaction: the record
 * is kept, while readers of `agreements` (flextime, KPI costs) see live rows only without a deleted_at filter.
 */
export async function archiveAgreement(ctx: Ctx, id: number): Promise<void> {
  const kept = ['id', 'person_id', 'date_from', 'date_until', 'cost_type', 'cost_rate', 'weekly_hours'] as const;
  const rest = ['work_days', 'created_at', 'updated_at'] as const;
  await ctx.db
    .insertInto('agreements_deleted')
    .columns(['company_id', ...kept, ...rest])
    .expression(
      scoped
        .select(ctx, 'agreements', 'a')
        .where('a.id', '=', id)
        .select(['a.company_id', ...kept.map((c) => `a.${c}` as const), ...rest.map((c) => `a.${c}` as const)]),
    )
    .execute();
  await agreements.remove(ctx, id);
}
