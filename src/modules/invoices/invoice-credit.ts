import type { Ctx } from '../../platform/context.ts';
import { fail } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { nowStamp } from '../../platform/sql.ts';
import { localToday } from '../../platform/dates.ts';
import { formatInvoiceNumber, numberScope } from '../billing-settings/index.ts';
import { numberFormat } from './invoice-finalize.ts';
import * as repo from './invoices.repository.ts';
import { allStoredRows, storedInvoice } from './invoices.stored.ts';

/*
 * Credit notes (decision 0064): an invoice of type credit_note, positive amounts, referring to the invoice it
 * credits. Its number comes from a range of its own: "CN-" before the invoice's number format, with a counter
 * scope apart from the invoices' (gapless: the counter row stays locked until the transaction ends).
 */
const PREFIX = 'CN-';
const SCOPE = 'credit_note:';

/** Columns a credit note does not take over from the invoice it credits. */
const OWN_COLUMNS = [
  'id',
  'status',
  'invoice_number',
  'invoice_date',
  'due_date',
  'paid_sum',
  'created_at',
  'updated_at',
  'finalized_at',
  'exported_at',
  'sent_at',
  'paid_at',
  'send_error',
  'send_failed_at',
  'type',
  'credited_invoice_id',
] as const;
const ROW_OWN_COLUMNS = ['id', 'invoice_id', 'created_at', 'updated_at'] as const;
const ROW_SLICE = 1000;

function without<T extends object>(row: T, columns: readonly string[]): Partial<T> {
  return Object.fromEntries(Object.entries(row).filter(([key]) => !columns.includes(key))) as Partial<T>;
}

async function creditNoteNumber(ctx: Ctx, contractId: number | null, date: string): Promise<string> {
  const format = PREFIX + (await numberFormat(ctx, contractId));
  const seq = await repo.nextNumber(ctx, SCOPE + numberScope(format, date));
  const number = formatInvoiceNumber(format, date, seq);
  if (await repo.numberTaken(ctx, number))
    fail('INVALID_STATUS_TRANSITION', `Credit note number ${number} is already taken by another invoice`, {
      from: 'created',
      to: 'annulled',
      reason: 'NUMBER_TAKEN',
      invoice_number: number,
    });
  return number;
}

/**
 * Issues the credit note of a whole invoice being annulled: its rows and sums as they stand, dated today,
 * numbered, finalized; invoice.created records it. Answers its id.
 */
export async function issueCreditNote(ctx: Ctx, invoiceId: number): Promise<number> {
  const invoice = orNotFound(await storedInvoice(ctx, invoiceId), 'Invoice');
  const date = localToday(ctx.company.timezone);
  const id = await repo.insertInvoice(ctx, {
    ...without(invoice, OWN_COLUMNS),
    type: 'credit_note',
    credited_invoice_id: invoice.id,
    status: 'created',
    invoice_number: await creditNoteNumber(ctx, invoice.contract_id, date),
    invoice_date: date,
    due_date: date,
    paid_sum: '0',
    finalized_at: nowStamp(),
  } as never);
  const rows = (await allStoredRows(ctx, invoiceId)).map((row) => ({
    ...without(row, ROW_OWN_COLUMNS),
    invoice_id: id,
  }));
  // In slices: a statement's parameters are limited, an invoice's rows are not.
  for (let at = 0; at < rows.length; at += ROW_SLICE)
    await repo.insertRows(ctx, rows.slice(at, at + ROW_SLICE) as never);
  await recordEvent(ctx, 'invoice', 'created', orNotFound(await repo.findInvoiceHeader(ctx, id), 'Invoice'));
  return id;
}
