import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { isoz } from '../../platform/sql.ts';
import { scoped, tenantTable, type NewRow, tenant } from '../../platform/tenant-table.ts';
import type { ContractRowRecord } from './contracts.row-schemas.ts';
import type { ContractRowListParams } from './contracts.schemas.ts';

export const contractRows = tenantTable('contract_rows', { alias: 'r' });
export const rowPrices = tenantTable('contract_row_prices', { alias: 'rp' });

/** Columns a row write stores (contract_id is set by the caller). */
export type RowColumns = Omit<NewRow<'contract_rows'>, 'contract_id' | 'id' | 'created_at' | 'updated_at'>;

const PRICE_JSON = sql`json_build_object('id', p.id, 'contract_row_id', p.contract_row_id, 'net_price', p.net_price,
  'active_from', p.active_from, 'created_at', ${isoz('p.created_at')}, 'updated_at', ${isoz('p.updated_at')})`;

/**
 * One contract row (alias r) as the API answers it, built in SQL: numeric columns become JSON numbers exactly as
 * stored, and the row's own prices are inlined (oldest active_from first).
 */
export const ROW_JSON = sql<ContractRowRecord>`json_build_object('id', r.id, 'contract_id', r.contract_id,
  'description', r.description, 'discount_rate', r.discount_rate, 'product_id', r.product_id, 'quantity', r.quantity,
  'unit', r.unit, 'invoice_time_min', r.invoice_time_min, 'net_price', r.net_price, 'tax_id', r.tax_id,
  'article_id', r.article_id, 'resource_id', r.resource_id, 'billing_project_id', r.billing_project_id,
  'ext_variable', r.ext_variable,
  'prices', (select coalesce(json_agg(${PRICE_JSON} order by p.active_from, p.id), '[]'::json)
    from contract_row_prices p where p.company_id = r.company_id and p.contract_row_id = r.id),
  'created_at', ${isoz('r.created_at')}, 'updated_at', ${isoz('r.updated_at')})`;

const rowsOf = (ctx: Ctx, contractId: number) => contractRows.base(ctx).where('r.contract_id', '=', contractId);

export async function findRow(ctx: Ctx, contractId: number, rowId: number): Promise<ContractRowRecord | undefined> {
  const found = await rowsOf(ctx, contractId).where('r.id', '=', rowId).select(ROW_JSON.as('row')).executeTakeFirst();
  return found?.row;
}

export async function rowExists(ctx: Ctx, contractId: number, rowId: number): Promise<boolean> {
  return (await rowsOf(ctx, contractId).where('r.id', '=', rowId).select('r.id').executeTakeFirst()) !== undefined;
}

export async function listRows(ctx: Ctx, contractId: number, params: ContractRowListParams) {
  const page = await listPage<{ id: number; row: ContractRowRecord }, ContractRowListParams>(ctx, {
    listId: 'contract-rows',
    params,
    options: { cursor: false },
    idColumn: 'r.id',
    project: (q: ReturnType<typeof rowsOf>) => q.select(['r.id', ROW_JSON.as('row')]),
    base: () => rowsOf(ctx, contractId),
  });
  return { data: page.data.map((x) => x.row), meta: page.meta };
}

/** Every row of a contract, oldest first (the billing engine reads them all; reads inline only 200). */
export async function allRows(ctx: Ctx, contractId: number): Promise<ContractRowRecord[]> {
  const rows = await rowsOf(ctx, contractId).select(ROW_JSON.as('row')).orderBy('r.id').execute();
  return rows.map((x) => x.row);
}

/** Locks the row (under its contract) for the rest of the transaction. */
export function lockRow(ctx: Ctx, contractId: number, rowId: number) {
  return rowsOf(ctx, contractId)
    .where('r.id', '=', rowId)
    .select(['r.id', 'r.updated_at', 'r.net_price', 'r.product_id', 'r.tax_id'])
    .forUpdate()
    .executeTakeFirst();
}

/** Inserts rows in their order; ids come back in the same order (one statement). */
export async function insertRows(ctx: Ctx, contractId: number, rows: readonly RowColumns[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await scoped
    .insert(
      ctx,
      'contract_rows',
      rows.map((row) => ({ ...row, contract_id: contractId })),
    )
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

export async function insertPrice(ctx: Ctx, rowId: number, netPrice: string, activeFrom: string) {
  const id = await rowPrices.insert(ctx, { contract_row_id: rowId, net_price: netPrice, active_from: activeFrom });
  return rowPrices
    .base(ctx)
    .where('rp.id', '=', id)
    .select(['rp.id', 'rp.contract_row_id', 'rp.net_price', 'rp.active_from', 'rp.created_at', 'rp.updated_at'])
    .executeTakeFirstOrThrow();
}

export async function rowHasPrices(ctx: Ctx, rowId: number): Promise<boolean> {
  const found = await rowPrices.base(ctx).where('rp.contract_row_id', '=', rowId).select('rp.id').executeTakeFirst();
  return found !== undefined;
}

/** Whether a row of a live contract (not an offer) carries a price, its own net_price or a price of its own. */
export function anyContractPriceSql(ctx: Ctx): RawBuilder<boolean> {
  // tenant: deliberate SQL — contract_rows filtered by company_id, contracts and row prices joined on it.
  return sql<boolean>`exists (select 1 from contract_rows r join contracts k on k.company_id = r.company_id and k.id = r.contract_id
                    where ${tenant(ctx, 'r')} and k.deleted_at is null and k.type = 'contract'
                      and (r.net_price is not null or exists (select 1 from contract_row_prices rp
                            where rp.company_id = r.company_id and rp.contract_row_id = r.id)))`;
}

/**
 * Copies every row of `fromId` (with its own prices) onto each of `targetIds` in one statement: new row ids are
 * drawn from the sequence first, so each copied price finds its copied row.
 */
export async function copyRows(ctx: Ctx, fromId: number, targetIds: readonly number[]): Promise<number> {
  if (targetIds.length === 0) return 0;
  // tenant: deliberate SQL (every table is filtered by the caller's company)
  const result = await sql<{ copied: number }>`
    with map as materialized (
      select s.src_id, s.target_id, nextval(pg_get_serial_sequence('contract_rows', 'id')) as new_id
      from (select r.id as src_id, t.target_id
        from contract_rows r cross join unnest(${[...targetIds]}::int[]) as t(target_id)
        where ${tenant(ctx, 'r')} and r.contract_id = ${fromId}
        order by t.target_id, r.id) s
    ), copied as (
      insert into contract_rows (company_id, id, contract_id, description, discount_rate, product_id, quantity, unit,
        invoice_time_min, net_price, tax_id, article_id, resource_id, billing_project_id, ext_variable)
      select r.company_id, m.new_id, m.target_id, r.description, r.discount_rate, r.product_id, r.quantity, r.unit,
        r.invoice_time_min, r.net_price, r.tax_id, r.article_id, r.resource_id, r.billing_project_id, r.ext_variable
      from map m join contract_rows r on ${tenant(ctx, 'r')} and r.id = m.src_id
      order by m.target_id, m.src_id
      returning id
    ), prices as (
      insert into contract_row_prices (company_id, contract_row_id, net_price, active_from)
      select p.company_id, m.new_id, p.net_price, p.active_from
      from map m join contract_row_prices p on ${tenant(ctx, 'p')} and p.contract_row_id = m.src_id
      returning id
    )
    select (select count(*)::int from copied) as copied, (select count(*) from prices) as prices`.execute(ctx.db);
  return result.rows[0]?.copied ?? 0;
}

/**
 * The contract row's own price in effect on `day` (the latest active_from on or before it, then the newest row),
 * as a scalar subquery for readers' SQL; null when the row has no price of its own by then.
 */
export function rowPriceInEffectSql(
  ctx: Ctx,
  row: RawBuilder<unknown>,
  day: RawBuilder<unknown>,
): RawBuilder<string | null> {
  // tenant: deliberate SQL — contract_row_prices filtered by company_id.
  return sql<string | null>`(select rp.net_price from contract_row_prices rp where ${tenant(ctx, 'rp')}
                          and rp.contract_row_id = ${row} and rp.active_from <= ${day}
                        order by rp.active_from desc, rp.id desc limit 1)`;
}

/** The days a contract row's own price can change: the active_from of each of its prices. */
export function rowPriceStartsSql(ctx: Ctx, row: RawBuilder<unknown>): RawBuilder<{ active_from: string }> {
  // tenant: deliberate SQL — contract_row_prices filtered by company_id.
  return sql`select rp.active_from from contract_row_prices rp
           where ${tenant(ctx, 'rp')} and rp.contract_row_id = ${row}`;
}
