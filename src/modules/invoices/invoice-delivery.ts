import type { Ctx } from '../../platform/context.ts';
import { nowStamp } from '../../platform/sql.ts';
import { fireUpdated } from './invoice-writes.ts';
import { statusAfterSend } from './invoice-status.ts';
import * as repo from './invoices.repository.ts';

/** Kept on the invoice: enough to say why (an SMTP answer, the reason a job gave), not a whole log. */
const MAX_SEND_ERROR = 1000;

/**
 * The send's mail went out (the invoice-documents job, in its transaction): the status after a send, sent_at now,
 * a failure of an earlier send cleared, invoice.updated. False when the invoice no longer exists.
 */
export async function recordSent(ctx: Ctx, id: number): Promise<boolean> {
  const invoice = await repo.lockInvoice(ctx, id);
  if (!invoice) return false;
  await repo.updateInvoice(ctx, id, {
    status: statusAfterSend(invoice.status),
    sent_at: nowStamp(),
    send_error: null,
    send_failed_at: null,
  });
  await fireUpdated(ctx, id);
  return true;
}

/** The invoice was exported (invoice-documents, under lockInvoice): exported_at is now, each time. */
export async function recordExported(ctx: Ctx, id: number): Promise<void> {
  await repo.updateInvoice(ctx, id, { exported_at: nowStamp() });
}

/** The send gave up: why and when show on the invoice (its status does not change), with invoice.updated. */
export async function recordSendFailure(ctx: Ctx, id: number, reason: string): Promise<void> {
  if (!(await repo.lockInvoice(ctx, id))) return;
  await repo.updateInvoice(ctx, id, {
    send_error: reason.slice(0, MAX_SEND_ERROR),
    send_failed_at: nowStamp(),
  });
  await fireUpdated(ctx, id);
}
