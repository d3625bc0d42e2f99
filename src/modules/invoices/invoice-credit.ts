import type { Ctx } from '../../platform/context.ts';
import { fail } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { nowStamp } from '../../platform/sql.ts';
import { localToday } from '../../platform/dates.ts';
import { formatInvoiceNumber, numberScope } from '../billing-settings/index.ts';
import { numberFormat } from './invoice-finalize.ts';
import { inTransaction } from '../../platform/context.ts';
import { Dec } from '../../platform/money.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import {
  creditItems,
  planItem,
  remainderOf,
  type CreditItem,
  type CreditItemInput,
  type CreditRejection,
  type CreditRowColumns,
} from './invoice-credit-rows.ts';
import { isBilled } from './invoice-status.ts';
import { assertAdmin, lockOr404, readInvoice, recomputeTotals } from './invoice-writes.ts';
import type { InvoiceRecord, InvoiceStatus } from './invoices.schemas.ts';
import * as repo from './invoices.repository.ts';
import { allStoredRows, storedInvoice, type StoredInvoice, type StoredInvoiceRow } from './invoices.stored.ts';

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
 * Writes a credit note of the invoice with these rows: the invoice's header and parties, dated today, numbered,
 * finalized, its sums those of its rows; invoice.created records it. Answers its id.
 */
async function insertCreditNote(ctx: Ctx, invoice: StoredInvoice, rows: CreditRowColumns[]): Promise<number> {
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
  const stored = rows.map((row) => ({ ...row, invoice_id: id }));
  // In slices: a statement's parameters are limited, an invoice's rows are not.
  for (let at = 0; at < stored.length; at += ROW_SLICE)
    await repo.insertRows(ctx, stored.slice(at, at + ROW_SLICE) as never);
  await recomputeTotals(ctx, id);
  await recordEvent(ctx, 'invoice', 'created', orNotFound(await repo.findInvoiceHeader(ctx, id), 'Invoice'));
  return id;
}

const creditedOf = (credited: Map<number, string>, rowId: number) => new Dec(credited.get(rowId) ?? 0);

/**
 * Issues the credit note of an invoice being annulled: what is left to credit of each row (all of it when no
 * partial credit note came before). Answers its id, or undefined when earlier credit notes credited every row.
 */
export async function issueCreditNote(ctx: Ctx, invoiceId: number): Promise<number | undefined> {
  const invoice = orNotFound(await storedInvoice(ctx, invoiceId), 'Invoice');
  const rows = await allStoredRows(ctx, invoiceId);
  const credited = await repo.creditedByRow(ctx, invoiceId);
  const left = rows.flatMap((row): CreditRowColumns[] => {
    const rest = remainderOf(row, creditedOf(credited, row.id), invoice.currency);
    return rest ? [rest] : [];
  });
  if (rows.length > 0 && left.length === 0) return undefined;
  return insertCreditNote(ctx, invoice, left);
}

/** 409 INVOICE_NOT_CREDITABLE unless a finalized, standing invoice (not a draft, annulled, or a credit note). */
function assertCreditable(invoice: { status: InvoiceStatus; type: string }): void {
  if (invoice.type === 'credit_note')
    fail('INVOICE_NOT_CREDITABLE', 'A credit note cannot be credited', { status: invoice.status, type: invoice.type });
  if (!isBilled(invoice.status))
    fail('INVOICE_NOT_CREDITABLE', `A ${invoice.status} invoice cannot be credited; only created, sent or paid ones`, {
      status: invoice.status,
      type: invoice.type,
    });
}

/** Every item against the invoice's rows: the credit note's rows and the rows it credits in full, or 422. */
function planCredit(
  items: readonly CreditItem[],
  rows: Map<number, StoredInvoiceRow>,
  credited: Map<number, string>,
  currency: string,
) {
  const planned: CreditRowColumns[] = [];
  const done: number[] = [];
  const rejections: CreditRejection[] = [];
  const seen = new Set<number>();
  items.forEach((item, index) => {
    const at = { row_index: index, row_id: item.row_id };
    const row = rows.get(item.row_id);
    if (!row)
      return void rejections.push({
        ...at,
        code: 'ROW_NOT_FOUND',
        message: `Row ${item.row_id} is not a row of this invoice`,
        field: 'row_id',
      });
    if (seen.has(item.row_id))
      return void rejections.push({
        ...at,
        code: 'DUPLICATE_ROW',
        message: `Row ${item.row_id} is named twice`,
        field: 'row_id',
      });
    seen.add(item.row_id);
    const plan = planItem(item, row, creditedOf(credited, row.id), currency);
    if ('rejection' in plan) return void rejections.push({ ...at, ...plan.rejection });
    planned.push(plan.columns);
    if (plan.left.isZero()) done.push(row.id);
  });
  if (rejections.length > 0)
    fail(
      'CREDIT_NOTE_ROWS_REJECTED',
      `${rejections.length} of ${items.length} items were refused; nothing was written`,
      {
        rejections,
      },
    );
  return { planned, done };
}

/**
 * POST /invoices/{id}/credit-notes: a credit note for chosen rows, quantities or amounts of a standing invoice,
 * which stays as it is. Rows credited in full release what the engine billed on them, as an annulment does.
 */
export async function creditInvoice(
  ctx: Ctx,
  invoiceId: number,
  inputs: readonly CreditItemInput[],
  preconditionOf: () => Precondition,
): Promise<InvoiceRecord> {
  assertAdmin(ctx);
  return inTransaction(ctx, async (tx) => {
    const locked = await lockOr404(tx, invoiceId);
    assertCreditable(locked);
    assertFresh(preconditionOf(), locked.updated_at);
    const invoice = orNotFound(await storedInvoice(tx, invoiceId), 'Invoice');
    const items = creditItems(inputs, invoice.currency);
    const rows = new Map(
      (
        await repo.rowsByIds(
          tx,
          invoiceId,
          items.map((i) => i.row_id),
        )
      ).map((r) => [r.id, r]),
    );
    const { planned, done } = planCredit(items, rows, await repo.creditedByRow(tx, invoiceId), invoice.currency);
    const id = await insertCreditNote(tx, invoice, planned);
    await repo.releaseBilled(tx, invoiceId, done);
    return readInvoice(tx, id);
  });
}
