import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { domainValidation } from '../../platform/errors.ts';
import { scoped } from '../../platform/tenant-table.ts';

/**
 * How much one contract may hold, and how much one template apply may copy (decision 0046). Without them a
 * contract grew without end one POST at a time, and an apply copied every template row and row price onto up to
 * 200 contracts in one statement of one request.
 */
/** Rows of one contract: more than a read inlines (200), so rows_truncated still says what the spec says. */
export const MAX_CONTRACT_ROWS = 500;
/** Prices in one row's own price list (each read of the row inlines all of them). */
export const MAX_ROW_PRICES = 50;
/** Records one apply may copy: (template rows + their prices) × the contracts that receive them. */
export const MAX_APPLY_COPIES = 20_000;

/** Live rows per contract (contracts without rows are absent). */
async function rowCounts(ctx: Ctx, contractIds: readonly number[]): Promise<Map<number, number>> {
  if (contractIds.length === 0) return new Map();
  const rows = await scoped
    .select(ctx, 'contract_rows', 'r')
    .where('r.contract_id', 'in', [...contractIds])
    .groupBy('r.contract_id')
    .select(['r.contract_id', sql<number>`count(*)::int`.as('n')])
    .execute();
  return new Map(rows.map((r) => [r.contract_id, r.n]));
}

/** 400 TOO_MANY_ROWS unless each contract can take `adding` more rows. */
export async function assertRowRoom(ctx: Ctx, contractIds: readonly number[], adding: number): Promise<void> {
  const counts = await rowCounts(ctx, contractIds);
  const full = contractIds.filter((id) => (counts.get(id) ?? 0) + adding > MAX_CONTRACT_ROWS);
  if (full.length === 0) return;
  const rows = counts.get(full[0]!) ?? 0;
  throw domainValidation(
    'TOO_MANY_ROWS',
    `A contract holds at most ${MAX_CONTRACT_ROWS} rows; contract ${full[0]} has ${rows} and ${adding} more were sent`,
    { max_rows: MAX_CONTRACT_ROWS, contract_ids: full, rows, adding },
  );
}

/** 400 TOO_MANY_PRICES when the row's price list is full. */
export async function assertPriceRoom(ctx: Ctx, rowId: number): Promise<void> {
  const found = await scoped
    .select(ctx, 'contract_row_prices', 'rp')
    .where('rp.contract_row_id', '=', rowId)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  if (found.n >= MAX_ROW_PRICES)
    throw domainValidation(
      'TOO_MANY_PRICES',
      `A contract row holds at most ${MAX_ROW_PRICES} prices; row ${rowId} has ${found.n}`,
      { max_prices: MAX_ROW_PRICES, contract_row_id: rowId, prices: found.n },
    );
}

/** What one template contributes to each contract it is copied onto: its rows and their prices. */
async function templateSize(ctx: Ctx, templateId: number) {
  return scoped
    .select(ctx, 'contract_rows', 'r')
    .where('r.contract_id', '=', templateId)
    .select([
      sql<number>`count(*)::int`.as('rows'),
      sql<number>`coalesce(sum((select count(*) from contract_row_prices p
        where p.company_id = r.company_id and p.contract_row_id = r.id)), 0)::int`.as('prices'),
    ])
    .executeTakeFirstOrThrow();
}

/**
 * Before an apply copies the template onto `created` new contracts and appends it to `appendTo`: 400
 * APPLY_TOO_LARGE over MAX_APPLY_COPIES records, TOO_MANY_ROWS when an appended contract would pass its cap.
 */
export async function assertApplySize(ctx: Ctx, templateId: number, created: number, appendTo: readonly number[]) {
  const receivers = created + appendTo.length;
  if (receivers === 0) return;
  const size = await templateSize(ctx, templateId);
  const copies = (size.rows + size.prices) * receivers;
  if (copies > MAX_APPLY_COPIES)
    throw domainValidation(
      'APPLY_TOO_LARGE',
      `One apply copies at most ${MAX_APPLY_COPIES} rows and row prices; this one would copy ${copies} ` +
        `(${size.rows} rows and ${size.prices} prices onto ${receivers} contracts): name fewer clients per call`,
      { field: 'client_ids', max_copies: MAX_APPLY_COPIES, copies, rows: size.rows, prices: size.prices, receivers },
    );
  await assertRowRoom(ctx, appendTo, size.rows);
}
