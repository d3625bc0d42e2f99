import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import { nowStamp } from '../../platform/sql.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import { assertAdmin, fireUpdated, lockOr404, readInvoice } from './invoice-writes.ts';
import { assertPayable, assertUnpayable, reconciledStatus, unpaidStatus } from './invoice-status.ts';
import type { InvoiceRecord } from './invoices.schemas.ts';
import * as repo from './invoices.repository.ts';

const now = () => nowStamp() as unknown as string;

async function write(ctx: Ctx, id: number, changes: RowChanges<'invoices'>): Promise<InvoiceRecord> {
  await repo.updateInvoice(ctx, id, changes);
  await fireUpdated(ctx, id);
  return readInvoice(ctx, id);
}

/**
 * created or sent → paid, paid_at now and paid_sum = total_sum. The status is checked before If-Match, as send
 * checks it (the spec's condition for a refusal: none), so a draft is 409 with or without one; of two concurrent
 * calls with the same version the second (waiting on the lock) finds the invoice paid: 409.
 */
export async function markPaid(ctx: Ctx, id: number, preconditionOf: () => Precondition): Promise<InvoiceRecord> {
  assertAdmin(ctx);
  return inTransaction(ctx, async (tx) => {
    const invoice = await lockOr404(tx, id);
    assertPayable(invoice.status);
    assertFresh(preconditionOf(), invoice.updated_at);
    return write(tx, id, { status: 'paid', paid_at: now(), paid_sum: invoice.total_sum });
  });
}

/**
 * Undoes mark-paid: paid → sent (when it was sent) or created, a paid invoice sent again stays sent; paid_at
 * cleared, paid_sum 0. If-Match optional, checked when sent.
 */
export async function markUnpaid(ctx: Ctx, id: number, precondition: Precondition | undefined): Promise<InvoiceRecord> {
  return inTransaction(ctx, async (tx) => {
    const invoice = await lockOr404(tx, id);
    if (precondition) assertFresh(precondition, invoice.updated_at);
    assertUnpayable(invoice);
    return write(tx, id, { status: unpaidStatus(invoice), paid_at: null, paid_sum: '0' });
  });
}

/**
 * No payment integration exists, so the only payments known are the recorded paid_sum. The status is
 * reconciled with it: a created/sent invoice whose paid_sum covers a positive total becomes paid; a paid
 * invoice whose total has grown past paid_sum goes back to sent/created (paid_sum kept as a part payment,
 * paid_at cleared). Otherwise nothing is written.
 */
export async function refreshPaymentStatus(ctx: Ctx, id: number): Promise<InvoiceRecord> {
  return inTransaction(ctx, async (tx) => {
    const invoice = await lockOr404(tx, id);
    const status = reconciledStatus(invoice);
    if (status === undefined) return readInvoice(tx, id);
    return write(tx, id, { status, paid_at: status === 'paid' ? now() : null });
  });
}
