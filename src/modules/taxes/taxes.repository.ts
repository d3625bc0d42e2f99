import type { TaxListParams } from './taxes.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { Dec, moneyOut } from '../../platform/money.ts';
import { cappedIds, likeContains } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { TAX_LIST_OPTIONS, type TaxRecord } from './taxes.schemas.ts';

export const taxes = tenantTable('taxes', { alias: 't' });
type Query = BaseQuery<'taxes', 't'>;
type TaxRow = Omit<TaxRecord, 'rate' | 'percent'> & { rate: string };

function project(query: Query) {
  return query.select(['t.id', 't.name', 't.rate', 't.status', 't.created_at', 't.updated_at']);
}

/** percent is derived, never stored: rate × 100 exactly, so the two cannot disagree. */
function toRecord(row: TaxRow): TaxRecord {
  return { ...row, rate: moneyOut(row.rate)!, percent: new Dec(row.rate).times(100).toNumber() };
}

function applyFilters(query: Query, filters: ListFilters<TaxListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('t.status', 'in', statuses as Array<'active' | 'inactive'>);
  if (filters.q !== undefined) q = q.where('t.name', 'ilike', likeContains(filters.q));
  return q;
}

export async function listTaxes(ctx: Ctx, params: TaxListParams) {
  const page = await listPage<TaxRow, TaxListParams>(ctx, {
    listId: 'taxes',
    params,
    options: TAX_LIST_OPTIONS,
    idColumn: 't.id',
    project,
    base: (filters) => applyFilters(taxes.base(ctx), filters),
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

export async function findTax(ctx: Ctx, id: number): Promise<TaxRecord | undefined> {
  const row = (await project(taxes.base(ctx).where('t.id', '=', id)).executeTakeFirst()) as TaxRow | undefined;
  return row && toRecord(row);
}

/** What products, contract rows and invoice rows need of the taxes a body names (another company's are absent). */
export interface TaxFacts {
  id: number;
  name: string;
  rate: string;
  status: string;
}

export async function taxFacts(ctx: Ctx, ids: readonly number[]): Promise<Map<number, TaxFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await scoped
    .select(ctx, 'taxes', 'tx')
    .where('tx.id', 'in', [...new Set(ids)])
    .select(['tx.id', 'tx.name', 'tx.rate', 'tx.status'])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** For an accounting sync: every tax (old invoices name inactive ones too), counted, with the first ids. */
export const taxesForSync = (ctx: Ctx, cap: number) => cappedIds(scoped.select(ctx, 'taxes', 'x'), cap);
