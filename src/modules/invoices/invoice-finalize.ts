import type { Ctx } from '../../platform/context.ts';
import { fail } from '../../platform/errors.ts';
import { nowStamp } from '../../platform/sql.ts';
import {
  formatInvoiceNumber,
  numberFormatProblem,
  numberScope,
  readBillingSettings,
} from '../billing-settings/index.ts';
import { clientSnapshot, contractSettings, sellerContact, sellerSnapshot } from './invoice-parties.ts';
import * as repo from './invoices.repository.ts';

/** The contract's invoice_number_format when it is a usable one, else the billing settings' format. */
export async function numberFormat(ctx: Ctx, contractId: number | null): Promise<string> {
  const contract = await contractSettings(ctx, contractId);
  const own = contract.invoice_number_format;
  if (typeof own === 'string' && numberFormatProblem(own) === null) return own;
  return (await readBillingSettings(ctx)).invoice_number_format;
}

/**
 * draft → created: the invoice gets the next number of its format's scope (gapless: the counter row stays
 * locked until this transaction ends) and the client and seller are snapshotted again, as they are now.
 * A draft without rows is refused: a number is never spent on an empty invoice.
 */
export async function finalize(ctx: Ctx, invoice: repo.LockedInvoice): Promise<void> {
  if ((await repo.rowCount(ctx, invoice.id)) === 0)
    fail('INVALID_STATUS_TRANSITION', 'A draft without rows cannot be finalized; add its rows first', {
      from: 'draft',
      to: 'created',
      reason: 'NO_ROWS',
    });
  const format = await numberFormat(ctx, invoice.contract_id);
  const seq = await repo.nextNumber(ctx, numberScope(format, invoice.invoice_date));
  const invoiceNumber = formatInvoiceNumber(format, invoice.invoice_date, seq);
  // Two formats can render the same text ("A{seq}" and "A{seq:2}" both give A10): refuse rather than clash.
  if (await repo.numberTaken(ctx, invoiceNumber))
    fail('INVALID_STATUS_TRANSITION', `Invoice number ${invoiceNumber} is already taken by another invoice`, {
      from: 'draft',
      to: 'created',
      reason: 'NUMBER_TAKEN',
      invoice_number: invoiceNumber,
    });
  const client = await clientSnapshot(ctx, invoice.client_id);
  const seller = invoice.seller_id === null ? undefined : await sellerSnapshot(ctx, invoice.seller_id, false);
  await repo.updateInvoice(ctx, invoice.id, {
    status: 'created',
    invoice_number: invoiceNumber,
    finalized_at: nowStamp(),
    ...(client ?? {}),
    ...(seller ?? {}),
    seller_contact: await sellerContact(ctx),
  });
}
