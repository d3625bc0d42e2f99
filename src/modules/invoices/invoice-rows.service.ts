import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import type { Written } from '../../platform/http.ts';
import { loadLookups, rowColumns } from './invoice-rows.rules.ts';
import { assertAdmin, fireUpdated, lockOr404, recomputeTotals, rowEditWarning } from './invoice-writes.ts';
import type { InvoiceRowInput, InvoiceRowListParams, InvoiceRowRecord } from './invoices.schemas.ts';
import * as repo from './invoices.repository.ts';

/**
 * Invoice rows. Every write locks the invoice first (concurrent row writes serialize on it), recomputes the
 * totals from the rows, moves the invoice's updated_at on and fires invoice.updated. If-Match is optional on
 * row writes; when sent it is checked against the row's own updated_at (decision 0019).
 */
const noSuchRow = 'Invoice row';

export async function listRows(ctx: Ctx, invoiceId: number, params: InvoiceRowListParams) {
  orNotFound(await repo.findInvoiceHeader(ctx, invoiceId), 'Invoice');
  return repo.listRows(ctx, invoiceId, params);
}

export async function getRow(ctx: Ctx, invoiceId: number, rowId: number): Promise<InvoiceRowRecord> {
  return orNotFound(await repo.findRow(ctx, invoiceId, rowId), noSuchRow);
}

export async function createRow(
  ctx: Ctx,
  invoiceId: number,
  body: InvoiceRowInput,
): Promise<Written<InvoiceRowRecord>> {
  assertAdmin(ctx);
  return inTransaction(ctx, async (tx) => {
    const invoice = await lockOr404(tx, invoiceId);
    const lookups = await loadLookups(tx, [body], invoice, () => '');
    const columns = rowColumns(body, undefined, lookups, invoice.currency);
    const [rowId] = await repo.insertRows(tx, [{ ...columns, invoice_id: invoiceId }]);
    const totals = await recomputeTotals(tx, invoiceId);
    await fireUpdated(tx, invoiceId);
    return { data: await getRow(tx, invoiceId, rowId!), warnings: rowEditWarning(invoice, 'row_created', totals) };
  });
}

async function lockRowOr404(ctx: Ctx, invoiceId: number, rowId: number, precondition: Precondition | undefined) {
  const row = orNotFound(await repo.lockRow(ctx, invoiceId, rowId), noSuchRow);
  if (precondition) assertFresh(precondition, row.updated_at);
  return row;
}

export async function updateRow(
  ctx: Ctx,
  invoiceId: number,
  rowId: number,
  body: InvoiceRowInput,
  precondition: Precondition | undefined,
): Promise<Written<InvoiceRowRecord>> {
  assertAdmin(ctx);
  return inTransaction(ctx, async (tx) => {
    const invoice = await lockOr404(tx, invoiceId);
    const stored = await lockRowOr404(tx, invoiceId, rowId, precondition);
    if (Object.keys(body).length === 0) return { data: await getRow(tx, invoiceId, rowId), warnings: [] };
    // The stored tax is read again: rule 1 takes the rate and name from the tax record on every write.
    const input = body.tax_id === undefined ? { ...body, tax_id: stored.tax_id } : body;
    const lookups = await loadLookups(tx, [input], invoice, () => '');
    await repo.updateRow(tx, rowId, rowColumns(input, stored, lookups, invoice.currency));
    const totals = await recomputeTotals(tx, invoiceId);
    await fireUpdated(tx, invoiceId);
    return { data: await getRow(tx, invoiceId, rowId), warnings: rowEditWarning(invoice, 'row_updated', totals) };
  });
}

/** Rows are removed for good (no soft delete); the answer is 204 without a warning, whatever the status. */
export async function deleteRow(
  ctx: Ctx,
  invoiceId: number,
  rowId: number,
  precondition: Precondition | undefined,
): Promise<void> {
  assertAdmin(ctx);
  await inTransaction(ctx, async (tx) => {
    await lockOr404(tx, invoiceId);
    await lockRowOr404(tx, invoiceId, rowId, precondition);
    await repo.deleteRow(tx, rowId);
    await recomputeTotals(tx, invoiceId);
    await fireUpdated(tx, invoiceId);
  });
}
