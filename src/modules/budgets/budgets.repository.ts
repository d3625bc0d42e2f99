import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { Dec, moneyOut } from '../../platform/money.ts';
import { firstRecord } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { companyCurrencySql } from '../companies/index.ts';
import { countedStatus, signedAmount } from '../invoices/index.ts';
import { BUDGET_LIST_OPTIONS, type BudgetListParams, type BudgetRecord } from './budgets.schemas.ts';

export const budgets = tenantTable('budgets', {
  alias: 'b',
  softDelete: true,
  lockColumns: ['client_id', 'project_id', 'date_from', 'date_until'],
});
type Query = BaseQuery<'budgets', 'b'>;
type BudgetRow = Omit<BudgetRecord, 'budget_net_sum' | 'warning_rate' | 'spent_net_sum' | 'warning'> & {
  budget_net_sum: string;
  warning_rate: string;
  spent_net_sum: string;
};

export interface LockedBudget {
  id: number;
  updated_at: string;
  client_id: number | null;
  project_id: number | null;
  date_from: string | null;
  date_until: string | null;
}

// tenant: deliberate SQL. The spend subqueries are correlated on the budget row `b`, whose company the gateway
// already fixed; every table they read is joined on b.company_id.
const BILLED = sql`i.company_id = b.company_id
  and ${countedStatus('i')}
  and i.currency = ${companyCurrencySql(sql.ref('b.company_id'))}
  and (b.date_from is null or i.invoice_date >= b.date_from)
  and (b.date_until is null or i.invoice_date <= b.date_until)`;

/** Invoice rows that bill time entries of the budget's project's tasks (each row counted once, in full). */
const PROJECT_ROWS = sql`exists (
  select 1 from invoice_row_entries e
  join time_entries te on te.company_id = e.company_id and te.id = e.time_entry_id
  join tasks t on t.company_id = te.company_id and t.id = te.task_id
  where e.company_id = r.company_id and e.invoice_row_id = coalesce(r.credited_row_id, r.id) and t.project_id = b.project_id)`;

const invoiceSum = (client: RawBuilder<unknown>) =>
  sql`(select coalesce(sum(${signedAmount('i', sql`i.net_sum`)}), 0) from invoices i where ${BILLED} and ${client})`;
const projectSum = (client: RawBuilder<unknown>) =>
  sql`(select coalesce(sum(${signedAmount('i', sql`r.net_sum`)}), 0) from invoice_rows r
    join invoices i on i.company_id = r.company_id and i.id = r.invoice_id
    where r.company_id = b.company_id and ${BILLED} and ${client} and ${PROJECT_ROWS})`;

/**
 * spent_net_sum, one branch per scope so each subquery has a plain predicate the planner can serve from an
 * index (invoices_client for a client; the whole company only when the budget names no client).
 */
const CLIENT = sql`i.client_id = b.client_id`;
const ANY_CLIENT = sql`true`;
const SPENT = sql<string>`case
  when b.project_id is null and b.client_id is null then ${invoiceSum(ANY_CLIENT)}
  when b.project_id is null then ${invoiceSum(CLIENT)}
  when b.client_id is null then ${projectSum(ANY_CLIENT)}
  else ${projectSum(CLIENT)} end`;

function project(query: Query) {
  return query.select([
    'b.id',
    'b.name',
    'b.client_id',
    'b.project_id',
    'b.date_from',
    'b.date_until',
    'b.budget_net_sum',
    'b.warning_rate',
    'b.status',
    SPENT.as('spent_net_sum'),
    'b.created_at',
    'b.updated_at',
  ]);
}

/** The warning compares exact decimals: spent ≥ budget × rate, never in binary floating point. */
function toRecord(row: BudgetRow): BudgetRecord {
  const threshold = new Dec(row.budget_net_sum).times(row.warning_rate);
  return {
    ...row,
    budget_net_sum: moneyOut(row.budget_net_sum)!,
    warning_rate: moneyOut(row.warning_rate)!,
    spent_net_sum: moneyOut(row.spent_net_sum)!,
    warning: new Dec(row.spent_net_sum).greaterThanOrEqualTo(threshold),
  };
}

function applyFilters(query: Query, filters: ListFilters<BudgetListParams>) {
  let q = query;
  if (filters.client_id !== undefined) q = q.where('b.client_id', '=', filters.client_id);
  if (filters.project_id !== undefined) q = q.where('b.project_id', '=', filters.project_id);
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('b.status', 'in', statuses as Array<'active' | 'closed'>);
  return q;
}

export async function listBudgets(ctx: Ctx, params: BudgetListParams) {
  const page = await listPage<BudgetRow, BudgetListParams>(ctx, {
    listId: 'budgets',
    params,
    options: BUDGET_LIST_OPTIONS,
    idColumn: 'b.id',
    project,
    base: (filters) => applyFilters(budgets.base(ctx), filters),
  });
  return { data: page.data.map(toRecord), meta: page.meta };
}

export async function findBudget(ctx: Ctx, id: number): Promise<BudgetRecord | undefined> {
  const row = await firstRecord<BudgetRow>(project(budgets.base(ctx).where('b.id', '=', id)));
  return row && toRecord(row);
}

export const lockBudget = (ctx: Ctx, id: number) => budgets.lock(ctx, id) as Promise<LockedBudget | undefined>;
