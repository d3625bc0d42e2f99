import type { Static } from 'typebox';
import type { Ctx } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import type { Warning as WarningSchema } from '../../platform/http.ts';
import { AMOUNT, Dec, decimalInput, moneyOut } from '../../platform/money.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { hasTier } from '../../platform/scopes.ts';
import { isLocked } from './invoice-status.ts';
import * as repo from './invoices.repository.ts';

/** What the invoice writes share: locking, totals, the locked-invoice warning and the update event. */
export type Warning = Static<typeof WarningSchema>;
export interface Totals {
  net_sum: string;
  tax_sum: string;
  total_sum: string;
}

export const LOCKED_WARNING = 'INVOICE_EDITED_WHILE_LOCKED';

/**
 * The spec puts invoice writes at admin (the routes' tier is financials, which admin carries today);
 * checked here too so the rule holds if financials is ever granted without admin.
 */
export function assertAdmin(ctx: Ctx): void {
  if (!hasTier(ctx.key.scopes, 'admin'))
    throw new AppError('FORBIDDEN', 'Invoice writes need the admin scope', { required_scope: 'admin' });
}

export async function lockOr404(ctx: Ctx, id: number): Promise<repo.LockedInvoice> {
  return orNotFound(await repo.lockInvoice(ctx, id), 'Invoice');
}

/**
 * Totals are the sums of the rounded rows, added up in SQL after every row write while the invoice row is
 * locked (so concurrent row writes serialize and the totals always equal their rows). Moves updated_at on.
 */
export async function recomputeTotals(ctx: Ctx, invoiceId: number): Promise<Totals> {
  const { net, tax } = await repo.rowTotals(ctx, invoiceId);
  const totals = {
    net_sum: decimalInput('net_sum', net, AMOUNT.sum),
    tax_sum: decimalInput('tax_sum', tax, AMOUNT.sum),
    total_sum: decimalInput('total_sum', new Dec(net).plus(tax).toFixed(), AMOUNT.sum),
  };
  await repo.updateInvoice(ctx, invoiceId, totals);
  return totals;
}

/** The warning a row create or update on a finalized invoice carries (none on drafts). */
export function rowEditWarning(
  invoice: repo.LockedInvoice,
  change: 'row_created' | 'row_updated',
  totals: Totals,
): Warning[] {
  if (!isLocked(invoice.status)) return [];
  const overpaid = new Dec(totals.total_sum).lessThan(invoice.paid_sum);
  return [
    {
      code: LOCKED_WARNING,
      message: `The invoice is ${invoice.status}; the row change was saved and its totals recomputed`,
      details: {
        status: invoice.status,
        change,
        total_sum: moneyOut(totals.total_sum)!,
        paid_sum: moneyOut(invoice.paid_sum)!,
        overpaid,
      },
    },
  ];
}

/** invoice.updated in the write's transaction; the event carries the invoice without its rows. */
export async function fireUpdated(ctx: Ctx, invoiceId: number): Promise<void> {
  const header = orNotFound(await repo.findInvoiceHeader(ctx, invoiceId), 'Invoice');
  await recordEvent(ctx, 'invoice', 'updated', header);
}

export async function readInvoice(ctx: Ctx, id: number) {
  return orNotFound(await repo.findInvoice(ctx, id), 'Invoice');
}
