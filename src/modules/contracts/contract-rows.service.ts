import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { assertFieldTier } from '../../platform/field-tier.ts';
import { AMOUNT, decimalInput, moneyOut } from '../../platform/money.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import * as rows from './contract-rows.repository.ts';
import { createColumns, loadFacts, rowWarnings, updateColumns } from './contract-rows.rules.ts';
import type { RowCreateBody, RowPriceCreateBody, RowUpdateBody } from './contracts.row-schemas.ts';
import type { ContractRowListParams } from './contracts.schemas.ts';
import { assertPriceRoom, assertRowRoom } from './contracts.limits.ts';
import * as repo from './contracts.repository.ts';

/** Row fields that carry money or decide the tax: admin (spec: money fields need admin). */
const ROW_MONEY_FIELDS = ['quantity', 'net_price', 'discount_rate', 'tax_id', 'product_id', 'invoice_time_min'];
/** Price lists without a date start here (as product prices: spec, Product). */
const DEFAULT_ACTIVE_FROM = '2000-01-01';

/** 404 before the body is validated: the row must be a row of that contract, of this company. */
export async function assertRowExists(ctx: Ctx, contractId: number, rowId: number): Promise<void> {
  if (!(await rows.rowExists(ctx, contractId, rowId))) throw notFound('Contract row');
}

export const listRows = (ctx: Ctx, contractId: number, params: ContractRowListParams) =>
  rows.listRows(ctx, contractId, params);

export async function getRow(ctx: Ctx, contractId: number, rowId: number) {
  return orNotFound(await rows.findRow(ctx, contractId, rowId), 'Contract row');
}

/** Contract first, then row: every row write takes the locks in this order, so two writers cannot deadlock. */
async function lockBoth(ctx: Ctx, contractId: number, rowId: number) {
  orNotFound(await repo.lockContract(ctx, contractId), 'Contract');
  return orNotFound(await rows.lockRow(ctx, contractId, rowId), 'Contract row');
}

/** POST rows: If-Match carries the contract's ETag (a new row changes the contract). */
export async function createRow(ctx: Ctx, contractId: number, body: RowCreateBody, precondition: Precondition) {
  return inTransaction(ctx, async (tx) => {
    const contract = orNotFound(await repo.lockContract(tx, contractId), 'Contract');
    assertFresh(precondition, contract.updated_at);
    await assertRowRoom(tx, [contractId], 1);
    const facts = await loadFacts(tx, [body]);
    const columns = createColumns(body, facts);
    const [id] = await rows.insertRows(tx, contractId, [columns]);
    await repo.touchContracts(tx, contractId);
    return { data: await getRow(tx, contractId, id!), warnings: rowWarnings(columns, facts, false) };
  });
}

/** PATCH a row: If-Match carries the row's own ETag; the contract's version moves on too. */
export async function updateRow(
  ctx: Ctx,
  contractId: number,
  rowId: number,
  body: RowUpdateBody,
  precondition: Precondition,
) {
  assertFieldTier(ctx, body, ROW_MONEY_FIELDS, 'admin');
  return inTransaction(ctx, async (tx) => {
    const current = await lockBoth(tx, contractId, rowId);
    assertFresh(precondition, current.updated_at);
    if (Object.keys(body).length === 0) return { data: await getRow(tx, contractId, rowId), warnings: [] };
    await rows.contractRows.update(tx, rowId, updateColumns(body, await loadFacts(tx, [body])));
    await repo.touchContracts(tx, contractId);
    const record = await getRow(tx, contractId, rowId);
    const facts = await loadFacts(tx, [{ product_id: record.product_id, tax_id: record.tax_id }]);
    return { data: record, warnings: rowWarnings(record, facts, record.prices.length > 0) };
  });
}

export async function deleteRow(ctx: Ctx, contractId: number, rowId: number, precondition: Precondition) {
  await inTransaction(ctx, async (tx) => {
    const current = await lockBoth(tx, contractId, rowId);
    assertFresh(precondition, current.updated_at);
    await rows.contractRows.remove(tx, rowId);
    await repo.touchContracts(tx, contractId);
  });
}

/** A price of the row's own list: If-Match carries the row's ETag; the row and the contract move on. */
export async function addRowPrice(
  ctx: Ctx,
  contractId: number,
  rowId: number,
  body: RowPriceCreateBody,
  precondition: Precondition,
) {
  const netPrice = decimalInput('net_price', body.net_price, AMOUNT.unitPrice);
  return inTransaction(ctx, async (tx) => {
    const current = await lockBoth(tx, contractId, rowId);
    assertFresh(precondition, current.updated_at);
    await assertPriceRoom(tx, rowId);
    const price = await rows.insertPrice(tx, rowId, netPrice, body.active_from ?? DEFAULT_ACTIVE_FROM);
    await rows.contractRows.update(tx, rowId, {});
    await repo.touchContracts(tx, contractId);
    return { ...price, net_price: moneyOut(price.net_price) as number };
  });
}
