import type { Ctx } from '../../platform/context.ts';
import { addDays, localToday } from '../../platform/dates.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation, fail, invalidReference } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import type { Written } from '../../platform/http.ts';
import { readBillingSettings, type BillingSettingsValues } from '../billing-settings/index.ts';
import { issueCreditNote } from './invoice-credit.ts';
import { finalize } from './invoice-finalize.ts';
import { checkTransition, isLocked } from './invoice-status.ts';
import {
  clientSnapshot,
  contractOf,
  NO_SELLER,
  sellerContact,
  sellerSnapshot,
  type ContractDefaults,
} from './invoice-parties.ts';
import { loadLookups, rowColumns } from './invoice-rows.rules.ts';
import {
  assertAdmin,
  fireUpdated,
  LOCKED_WARNING,
  lockOr404,
  readInvoice,
  recomputeTotals,
  type Warning,
} from './invoice-writes.ts';
import {
  HEADER_FIELDS,
  type InvoiceCreateBody,
  type InvoiceListParams,
  type InvoiceRecord,
  type InvoiceUpdateBody,
} from './invoices.schemas.ts';
import * as repo from './invoices.repository.ts';

/** Reads answer the JSON text PostgreSQL built (see the repository). */
export const listInvoices = (ctx: Ctx, params: InvoiceListParams) => repo.listInvoiceTexts(ctx, params);
export const getInvoice = async (ctx: Ctx, id: number) => orNotFound(await repo.findInvoiceText(ctx, id), 'Invoice');

/** due_date arrives as a date or a date-time; the day is the date part as written (what GET answers round-trips). */
const dueDay = (value: string) => value.slice(0, 10);

function assertDueAfterDate(invoiceDate: string, dueDate: string): void {
  if (dueDate < invoiceDate)
    throw domainValidation('INVALID_DATE_RANGE', 'due_date must not be before invoice_date', {
      field: 'due_date',
      invoice_date: invoiceDate,
      due_date: dueDate,
    });
}

const textSetting = (value: unknown, pattern: RegExp) =>
  typeof value === 'string' && pattern.test(value) ? value : undefined;

/** The contract's invoice_due_date_period (days), else the billing settings' payment term. */
function termDays(contract: ContractDefaults, settings: BillingSettingsValues): number {
  const days = Number(contract.invoice_due_date_period);
  const usable = contract.invoice_due_date_period != null && Number.isInteger(days) && days >= 0 && days <= 3650;
  return usable ? days : settings.payment_term_days;
}

/** The seller sent (an active seller of the company, else INVALID_SELLER) or the default one while active. */
async function chooseSeller(ctx: Ctx, sent: number | null | undefined, fallback: number | null) {
  if (sent === null) return { seller_id: null, ...NO_SELLER };
  const id = sent ?? fallback;
  const seller = id === null ? undefined : await sellerSnapshot(ctx, id, true);
  if (sent !== undefined && !seller) throw invalidReference('seller', 'seller_id', sent);
  return seller ? { seller_id: id, ...seller } : { seller_id: null, ...NO_SELLER };
}

async function headerFor(ctx: Ctx, body: InvoiceCreateBody) {
  const settings = await readBillingSettings(ctx);
  const client = await clientSnapshot(ctx, body.client_id);
  if (!client) throw invalidReference('client', 'client_id', body.client_id);
  const contract = body.contract_id == null ? {} : await contractOf(ctx, body.contract_id, body.client_id);
  const seller = await chooseSeller(ctx, body.seller_id, settings.default_seller_id);
  const invoice_date = body.invoice_date ?? localToday(ctx.company.timezone);
  const due_date =
    body.due_date !== undefined ? dueDay(body.due_date) : addDays(invoice_date, termDays(contract, settings));
  assertDueAfterDate(invoice_date, due_date);
  return {
    client_id: body.client_id,
    contract_id: body.contract_id ?? null,
    invoice_date,
    due_date,
    currency: body.currency ?? textSetting(contract.currency, /^[A-Z]{3}$/) ?? settings.default_currency,
    locale_code: body.locale_code ?? textSetting(contract.locale_code, /^\S{2,16}$/) ?? settings.default_locale_code,
    reference_number:
      body.reference_number !== undefined
        ? body.reference_number
        : (textSetting(contract.reference_number, /./) ?? null),
    comments: body.comments ?? null,
    period_label: body.period_label ?? null,
    ...client,
    ...seller,
    seller_contact: await sellerContact(ctx),
  };
}

/** What the billing engine adds to a draft's header: the period it bills, and whether it bills time. */
export interface DraftExtras {
  period_from?: string;
  period_until?: string;
  bills_time?: boolean;
}

/**
 * Inserts a draft with its rows inside the caller's transaction (rows are not capped here: the engine may
 * write more than a request may send) and records invoice.created. Answers the ids, rows in input order.
 */
export async function insertDraft(
  tx: Ctx,
  body: InvoiceCreateBody,
  extras: DraftExtras = {},
): Promise<{ id: number; rowIds: number[] }> {
  const header = await headerFor(tx, body);
  const inputs = body.rows ?? [];
  const lookups = await loadLookups(tx, inputs, header, (i) => `rows[${i}].`);
  const rows = inputs.map((row, i) => rowColumns(row, undefined, lookups, header.currency, `rows[${i}].`));
  const id = await repo.insertInvoice(tx, { ...header, ...extras, status: 'draft' });
  const rowIds = await repo.insertRows(
    tx,
    rows.map((row) => ({ ...row, invoice_id: id })),
  );
  if (rows.length > 0) await recomputeTotals(tx, id);
  await recordEvent(tx, 'invoice', 'created', orNotFound(await repo.findInvoiceHeader(tx, id), 'Invoice'));
  return { id, rowIds };
}

/** A draft, with its rows (every row checked; one refused row refuses the whole invoice). */
export async function createInvoice(ctx: Ctx, body: InvoiceCreateBody): Promise<InvoiceRecord> {
  assertAdmin(ctx);
  return inTransaction(ctx, async (tx) => readInvoice(tx, (await insertDraft(tx, body)).id));
}

function headerChanges(body: InvoiceUpdateBody, locked: repo.LockedInvoice): RowChanges<'invoices'> {
  const changes: RowChanges<'invoices'> = {};
  if (body.invoice_date !== undefined) changes.invoice_date = body.invoice_date;
  if (body.due_date !== undefined) changes.due_date = dueDay(body.due_date);
  if (body.reference_number !== undefined) changes.reference_number = body.reference_number;
  if (body.comments !== undefined) changes.comments = body.comments;
  if (body.locale_code !== undefined) changes.locale_code = body.locale_code;
  if (changes.invoice_date !== undefined || changes.due_date !== undefined)
    assertDueAfterDate(
      (changes.invoice_date as string | undefined) ?? locked.invoice_date,
      (changes.due_date as string | undefined) ?? locked.due_date,
    );
  return changes;
}

/**
 * PATCH /invoices/{id}: InvoiceUpdate fields only, always behind If-Match (checked after the lock, so an
 * unknown id is 404 first). Header edits of a finalized invoice succeed with INVOICE_EDITED_WHILE_LOCKED.
 */
export async function updateInvoice(
  ctx: Ctx,
  id: number,
  body: InvoiceUpdateBody,
  preconditionOf: () => Precondition,
): Promise<Written<InvoiceRecord>> {
  assertAdmin(ctx);
  return inTransaction(ctx, async (tx) => {
    const locked = await lockOr404(tx, id);
    assertFresh(preconditionOf(), locked.updated_at);
    if (Object.keys(body).length === 0) return { data: await readInvoice(tx, id), warnings: [] };
    const target = body.status !== undefined && body.status !== locked.status ? body.status : undefined;
    if (target) checkTransition(locked.status, target);
    if (target === 'annulled' && locked.type === 'credit_note')
      fail('INVALID_STATUS_TRANSITION', 'A credit note cannot be annulled', {
        from: locked.status,
        to: target,
        reason: 'CREDIT_NOTE',
      });
    const changes = headerChanges(body, locked);
    if (Object.keys(changes).length > 0) await repo.updateInvoice(tx, id, changes);
    if (target === 'created') await finalize(tx, { ...locked, ...changes } as repo.LockedInvoice);
    if (target === 'annulled') {
      await repo.updateInvoice(tx, id, { status: 'annulled' });
      // Annulling a finalized invoice issues its credit note; the credit note is what releases its time
      // entries and periodic fees, so the engine bills them again (decision 0064).
      await issueCreditNote(tx, id);
      await repo.releaseBilled(tx, id);
    }
    await fireUpdated(tx, id);
    const data = await readInvoice(tx, id);
    const edited = HEADER_FIELDS.filter((field) => body[field] !== undefined);
    const warnings: Warning[] =
      isLocked(locked.status) && edited.length > 0
        ? [
            {
              code: LOCKED_WARNING,
              message: `The invoice is ${data.status}; the header change was saved`,
              details: { status: data.status, edited_fields: edited },
            },
          ]
        : [];
    return { data, warnings };
  });
}
