import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, nextStamp } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { companyTodaySql } from '../companies/index.ts';
import { ROW_JSON } from './contract-rows.repository.ts';
import {
  CONTRACT_LIST_OPTIONS,
  ROWS_INLINE_CAP,
  type ContractListParams,
  type ContractRecord,
  type ContractStatus,
} from './contracts.schemas.ts';
import { SETTINGS_DEFAULTS } from './contracts.settings.ts';

export const contracts = tenantTable('contracts', {
  alias: 'k',
  softDelete: true,
  lockColumns: [
    'status',
    'type',
    'client_id',
    'date_from',
    'date_until',
    'settings',
    'name',
    'invoice_period',
    'invoice_day',
  ],
});
type Query = BaseQuery<'contracts', 'k'>;
type ContractRow = Omit<ContractRecord, 'rows_truncated'>;

/** What a locked contract tells the service. */
export interface LockedContract {
  id: number;
  updated_at: string;
  status: ContractStatus;
  type: 'contract' | 'template';
  client_id: number | null;
  date_from: string | null;
  date_until: string | null;
  settings: unknown;
  name: string;
  invoice_period: string;
  invoice_day: number;
}

const DEFAULTS = JSON.stringify(SETTINGS_DEFAULTS);

/** The contract as the API answers it: settings over their defaults, and its first rows (cap + 1) built in SQL. */
function project(query: Query) {
  return query.select([
    'k.id',
    'k.client_id',
    'k.name',
    'k.parent_id',
    'k.template_name',
    'k.status',
    'k.type',
    'k.date_from',
    'k.date_until',
    'k.invoice_period',
    'k.invoice_day',
    sql<ContractRecord['settings']>`${DEFAULTS}::jsonb || k.settings`.as('settings'),
    sql<ContractRecord['rows']>`(select coalesce(json_agg(x.row order by x.id), '[]'::json) from (
      select r.id, ${ROW_JSON} as row from contract_rows r where r.company_id = k.company_id and r.contract_id = k.id
      order by r.id limit ${ROWS_INLINE_CAP + 1}) x)`.as('rows'),
    'k.created_at',
    'k.updated_at',
  ]);
}

function withTruncation(row: ContractRow): ContractRecord {
  const truncated = row.rows.length > ROWS_INLINE_CAP;
  return { ...row, rows: truncated ? row.rows.slice(0, ROWS_INLINE_CAP) : row.rows, rows_truncated: truncated };
}

function applyFilters(query: Query, filters: ListFilters<ContractListParams>) {
  let q = query;
  const statuses = splitList(filters.status);
  if (statuses) q = q.where('k.status', 'in', statuses as ContractStatus[]);
  const types = splitList(filters.type);
  if (types) q = q.where('k.type', 'in', types as Array<'contract' | 'template'>);
  if (filters.client_id !== undefined) q = q.where('k.client_id', '=', filters.client_id);
  if (filters.q !== undefined) q = q.where('k.name', 'ilike', likeContains(filters.q));
  return q;
}

export async function listContracts(ctx: Ctx, params: ContractListParams) {
  const page = await listPage<ContractRow, ContractListParams>(ctx, {
    listId: 'contracts',
    params,
    options: CONTRACT_LIST_OPTIONS,
    idColumn: 'k.id',
    project,
    base: (filters) => applyFilters(contracts.base(ctx), filters),
  });
  return { data: page.data.map(withTruncation), meta: page.meta };
}

export async function findContract(ctx: Ctx, id: number): Promise<ContractRecord | undefined> {
  const row = await project(contracts.base(ctx).where('k.id', '=', id)).executeTakeFirst();
  return row ? withTruncation(row as ContractRow) : undefined;
}

export async function contractExists(ctx: Ctx, id: number): Promise<boolean> {
  return (await contracts.base(ctx).where('k.id', '=', id).select('k.id').executeTakeFirst()) !== undefined;
}

export const lockContract = (ctx: Ctx, id: number) => contracts.lock(ctx, id) as Promise<LockedContract | undefined>;

/** A new version (and ETag) for contracts whose rows changed. */
export const touchContracts = (ctx: Ctx, ids: number | readonly number[]) => contracts.update(ctx, ids, {});

/** A live template of this company (for parent_id), or undefined. */
export async function findTemplate(ctx: Ctx, id: number) {
  return contracts
    .base(ctx)
    .where('k.id', '=', id)
    .where('k.type', '=', 'template')
    .select(['k.id', 'k.name'])
    .executeTakeFirst();
}

/** What apply reads of a client's live contracts: type contract, active or pending, not deleted. */
export interface LiveContract {
  id: number;
  client_id: number;
  parent_id: number | null;
  status: ContractStatus;
  date_from: string | null;
  date_until: string | null;
}

export async function liveContractsOf(ctx: Ctx, clientIds: readonly number[], lock: boolean) {
  if (clientIds.length === 0) return [];
  let query = contracts
    .base(ctx)
    .where('k.type', '=', 'contract')
    .where('k.status', 'in', ['active', 'pending'])
    .where('k.client_id', 'in', [...clientIds])
    .select(['k.id', 'k.client_id', 'k.parent_id', 'k.status', 'k.date_from', 'k.date_until'])
    .orderBy('k.id');
  if (lock) query = query.forUpdate();
  return (await query.execute()) as LiveContract[];
}

/** Ends contracts on `dateUntil`; an active one whose end is today or earlier is finished at once. */
export async function endContracts(ctx: Ctx, ids: readonly number[], dateUntil: string, today: string) {
  if (ids.length === 0) return;
  await scoped
    .update(ctx, 'contracts')
    .set({
      date_until: dateUntil,
      status: sql`case when status = 'active' and ${dateUntil}::date <= ${today}::date then 'finished' else status end`,
      updated_at: nextStamp(),
    })
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * The hourly sweep: active contracts whose last day has come (date_until up to the company's own today) become
 * finished, in every company at once.
 */
export async function finishEndedContracts(db: Executor): Promise<number> {
  // tenant: deliberate SQL (a maintenance pass over all companies, each by its own time zone)
  const result = await sql`update contracts k set status = 'finished', updated_at = ${nextStamp('k.updated_at')}
    where k.status = 'active' and k.deleted_at is null
    and k.date_until is not null and k.date_until <= ${companyTodaySql(sql.ref('k.company_id'))}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** settings.invoice_recipients of a contract, for its invoices' mail (absent, deleted or not a list: none). */
export async function contractRecipients(ctx: Ctx, contractId: number): Promise<unknown> {
  const row = await scoped
    .select(ctx, 'contracts', 'ct')
    .select('ct.settings')
    .where('ct.id', '=', contractId)
    .where('ct.deleted_at', 'is', null)
    .executeTakeFirst();
  return (row?.settings as Record<string, unknown> | undefined)?.invoice_recipients;
}

/** ContractSettings an invoice takes its defaults from (all optional, free-form in storage). */
export interface ContractInvoiceDefaults {
  currency?: unknown;
  invoice_due_date_period?: unknown;
  invoice_number_format?: unknown;
  locale_code?: unknown;
  reference_number?: unknown;
}

/** A live contract's client and the settings an invoice of it defaults from; undefined when absent or deleted. */
export async function liveContractDefaults(
  ctx: Ctx,
  contractId: number,
): Promise<{ client_id: number | null; settings: ContractInvoiceDefaults } | undefined> {
  const row = await scoped
    .select(ctx, 'contracts', 'k')
    .where('k.id', '=', contractId)
    .where('k.deleted_at', 'is', null)
    .select(['k.client_id', 'k.settings'])
    .executeTakeFirst();
  return row && { client_id: row.client_id, settings: (row.settings ?? {}) as ContractInvoiceDefaults };
}

/** The settings of a contract, deleted or not (an invoice finalized later still takes its contract's). */
export async function contractDefaults(ctx: Ctx, contractId: number): Promise<ContractInvoiceDefaults> {
  const row = await scoped
    .select(ctx, 'contracts', 'k')
    .where('k.id', '=', contractId)
    .select('k.settings')
    .executeTakeFirst();
  return (row?.settings ?? {}) as ContractInvoiceDefaults;
}
