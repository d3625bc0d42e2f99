import { sql, type RawBuilder } from 'kysely';
import { fail } from '../../platform/errors.ts';
import { Dec } from '../../platform/money.ts';
import type { InvoiceStatus } from './invoices.schemas.ts';

/*
 * The invoice state machine (spec "States and transitions"), its one home: which statuses send, pay and unpay,
 * what each action leaves behind, and which status moves a PATCH makes. The actions live elsewhere and ask here.
 */

/**
 * Locked: finalized once, whatever happened since (annulled included). Their rows still change, with the
 * INVOICE_EDITED_WHILE_LOCKED warning.
 */
export const LOCKED_STATUSES = ['created', 'sent', 'paid', 'annulled'] as const satisfies readonly InvoiceStatus[];
/**
 * Billed: finalized and standing. They count as revenue and spend, lock the time they bill and its period, and
 * are what an accounting system books; a draft is not yet billed, an annulled invoice no longer is.
 */
export const BILLED_STATUSES = ['created', 'sent', 'paid'] as const satisfies readonly InvoiceStatus[];

const has = (set: readonly string[], status: string) => set.includes(status);
export const isLocked = (status: InvoiceStatus) => has(LOCKED_STATUSES, status);
/** Takes any string: readers of invoice_row_entries links get the status as SQL text. */
export const isBilled = (status: string) => has(BILLED_STATUSES, status);

/**
 * `<alias>.status in ('created', 'sent', 'paid')`, of invoices proper (not credit notes): what locks the time an
 * invoice bills and its period. The values are written inline, not bound, so the predicate still matches the
 * partial index on billed periods (migration 0070).
 */
export const billedStatus = (alias = 'i'): RawBuilder<boolean> =>
  sql<boolean>`${sql.ref(`${alias}.status`)} in (${sql.join(BILLED_STATUSES.map((s) => sql.lit(s)))}) and ${invoiceType(alias)}`;

/** `<alias>.type = 'invoice'`: invoices proper, not credit notes. */
export const invoiceType = (alias = 'i'): RawBuilder<boolean> => sql<boolean>`${sql.ref(`${alias}.type`)} = 'invoice'`;

const billedIn = (alias: string) =>
  sql`${sql.ref(`${alias}.status`)} in (${sql.join(BILLED_STATUSES.map((s) => sql.lit(s)))})`;

/**
 * What revenue and spend count (decision 0064): a billed invoice, and a credit note of an invoice that is itself
 * billed. A credit note of an annulled invoice counts nothing, as the invoice it credits no longer counts: so an
 * annulment leaves every figure as if the invoice had never been finalized, and a partial credit note of a
 * standing invoice lowers it. Pair it with signedAmount.
 */
export const countedStatus = (
  alias = 'i',
): RawBuilder<boolean> => sql<boolean>`${billedIn(alias)} and (${invoiceType(alias)}
  or exists (select 1 from invoices credited where credited.company_id = ${sql.ref(`${alias}.company_id`)}
              and credited.id = ${sql.ref(`${alias}.credited_invoice_id`)} and ${billedIn('credited')}))`;

/** An amount of the invoice (or of its row) with its sign: a credit note's amounts are stored positive, count negative. */
export const signedAmount = (alias: string, amount: RawBuilder<unknown>): RawBuilder<string> =>
  sql<string>`case when ${sql.ref(`${alias}.type`)} = 'credit_note' then -${amount} else ${amount} end`;

/** A billed invoice can be sent, and sent again. */
const SENDABLE: readonly InvoiceStatus[] = BILLED_STATUSES;
/** Open: finalized and not yet paid. mark-paid takes these; a covering paid_sum makes them paid. */
const OPEN: readonly InvoiceStatus[] = ['created', 'sent'];

export const isSendable = (status: InvoiceStatus) => SENDABLE.includes(status);
export const isOpen = (status: InvoiceStatus) => OPEN.includes(status);

/** 409 INVOICE_NOT_SENDABLE unless created, sent or paid, whatever the If-Match (the spec's condition: none). */
export function assertSendable(status: InvoiceStatus): void {
  if (!isSendable(status))
    fail('INVOICE_NOT_SENDABLE', `A ${status} invoice cannot be sent; only created, sent or paid ones`, { status });
}

/**
 * What a send that went out leaves: created, sent and paid all become sent; a paid one keeps paid_at and paid_sum.
 * A status that stopped being sendable while the mail was out (annulled meanwhile) stays as it is.
 */
export const statusAfterSend = (status: InvoiceStatus): InvoiceStatus => (isSendable(status) ? 'sent' : status);

/** 409 INVOICE_NOT_PAYABLE unless created or sent, whatever the If-Match (checked first, as send does). */
export function assertPayable(status: InvoiceStatus): void {
  if (!isOpen(status))
    fail('INVOICE_NOT_PAYABLE', `A ${status} invoice cannot be marked paid; only created or sent ones`, { status });
}

/**
 * mark-unpaid reverses mark-paid: a paid invoice, or a paid one sent again since (status sent, paid_at still set).
 * Anything else is 409 INVOICE_NOT_PAYABLE.
 */
export function assertUnpayable(invoice: { status: InvoiceStatus; paid_at: string | null }): void {
  if (invoice.status === 'paid' || (invoice.status === 'sent' && invoice.paid_at !== null)) return;
  fail('INVOICE_NOT_PAYABLE', `A ${invoice.status} invoice that is not paid cannot be marked unpaid`, {
    status: invoice.status,
  });
}

/** Where an invoice goes when its payment is undone: sent when it was sent, else created. */
export const unpaidStatus = (invoice: { sent_at: string | null }): InvoiceStatus =>
  invoice.sent_at ? 'sent' : 'created';

/**
 * What the recorded paid_sum makes of an invoice: an open one whose paid_sum covers a positive total becomes paid;
 * a paid one whose total has grown past paid_sum goes where mark-unpaid would take it. Undefined: it stays.
 */
export function reconciledStatus(invoice: {
  status: InvoiceStatus;
  sent_at: string | null;
  paid_sum: string;
  total_sum: string;
}): InvoiceStatus | undefined {
  const paid = new Dec(invoice.paid_sum);
  const total = new Dec(invoice.total_sum);
  if (isOpen(invoice.status) && total.greaterThan(0) && paid.greaterThanOrEqualTo(total)) return 'paid';
  if (invoice.status === 'paid' && paid.lessThan(total)) return unpaidStatus(invoice);
  return undefined;
}

/** 409 INVALID_STATUS_TRANSITION for a draft: only a finalized invoice is exported. */
export function assertExportable(status: string): void {
  if (status === 'draft')
    fail('INVALID_STATUS_TRANSITION', 'A draft invoice cannot be exported; finalize it first (PATCH status=created)', {
      status,
    });
}

/** PATCH status: draft → created finalizes; created, sent, paid → annulled; sent and paid have their own actions. */
export function checkTransition(from: InvoiceStatus, to: InvoiceStatus): void {
  if (to === 'sent' || to === 'paid')
    fail(
      'STATUS_TRANSITION_NOT_SUPPORTED',
      `An invoice becomes ${to} through POST /invoices/{id}/${to === 'sent' ? 'send' : 'mark-paid'}, not PATCH`,
      { from, to },
    );
  if (to === 'created' && from === 'draft') return;
  if (to === 'annulled' && SENDABLE.includes(from)) return;
  fail('INVALID_STATUS_TRANSITION', `An invoice cannot go from ${from} to ${to}`, { from, to });
}
