import type { Config } from '../../config.ts';
import type { Ctx } from '../../platform/context.ts';
import { deliverMail, type Delivery, type RenderedTemplate } from '../content-templates/index.ts';
import { primaryContactEmail } from '../contacts/index.ts';
import { contractRecipients } from '../contracts/index.ts';
import type { StoredInvoice } from '../invoices/index.ts';
import { formatDecimal, localeOf } from './invoice-documents.labels.ts';
import { shownPlaces, type InvoiceDocument } from './invoice-documents.model.ts';

export interface InvoiceMail {
  to: string[];
  subject: string;
  text: string;
  /** From an HTML invoice_email template. */
  html?: string;
  filename: string;
  pdf: Buffer;
}

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
/** More addresses than this on one invoice is a mistake in the settings, not a mailing list. */
const MAX_RECIPIENTS = 20;

function addresses(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [];
  const valid = list.filter((v): v is string => typeof v === 'string').map((v) => v.trim());
  return [...new Set(valid.filter((v) => EMAIL.test(v)))].slice(0, MAX_RECIPIENTS);
}

/**
 * Who receives the invoice: the addresses stored on the invoice itself, else its contract's
 * settings.invoice_recipients, else the client's primary contact. Empty when there is none.
 */
export async function recipientsOf(
  ctx: Ctx,
  invoice: Pick<StoredInvoice, 'recipients' | 'contract_id' | 'client_id'>,
): Promise<string[]> {
  const own = addresses(invoice.recipients);
  if (own.length > 0) return own;
  if (invoice.contract_id !== null) {
    const contract = addresses(await contractRecipients(ctx, invoice.contract_id));
    if (contract.length > 0) return contract;
  }
  const primary = await primaryContactEmail(ctx, invoice.client_id);
  return addresses(primary ? [primary] : []);
}

/** What a send without any recipient is told, at request time (409) or, should they vanish meanwhile, by its job. */
export const noRecipient = (invoiceId: number) =>
  `invoice ${invoiceId} has no recipient: set the contract's settings.invoice_recipients or give the client a primary contact with an e-mail`;

/** A file name a mail client or browser takes as is: the invoice number with anything unusual replaced. */
export const fileNameOf = (label: string, extension: string) =>
  `invoice-${label.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100)}.${extension}`;

/** The invoice's facts as the mail shows them, in the invoice's language: the invoice_email placeholders. */
export function mailValues(model: InvoiceDocument): Record<string, string | null> {
  const locale = localeOf(model.invoice.locale_code);
  const i = model.invoice;
  const money = (value: string) => `${formatDecimal(locale, value, shownPlaces(i.currency))} ${i.currency}`;
  return {
    'client.name': i.client_name,
    'seller.name': i.seller_name,
    'invoice.number': model.label,
    'invoice.invoice_date': locale.date(i.invoice_date),
    'invoice.due_date': locale.date(i.due_date),
    'invoice.total': money(model.totals.total),
    'invoice.due_amount': money(model.totals.due),
    'invoice.currency': i.currency,
    'invoice.reference_number': i.reference_number,
  };
}

/**
 * The company's invoice_email template rendered for the invoice's language when it has one; else the
 * built-in text: subject "Invoice 2026-001 - Seller Ltd" and the short facts. The PDF is the invoice.
 */
export function composeMail(
  model: InvoiceDocument,
  to: string[],
  pdf: Buffer,
  template?: RenderedTemplate,
): InvoiceMail {
  const filename = fileNameOf(model.label, 'pdf');
  if (template) return { to, subject: template.subject, text: template.text, html: template.html, filename, pdf };
  const locale = localeOf(model.invoice.locale_code);
  const l = locale.labels;
  const i = model.invoice;
  const v = mailValues(model);
  const facts = [
    `${l.invoiceDate}: ${v['invoice.invoice_date']}`,
    `${l.total}: ${v['invoice.total']}`,
    `${l.toPay}: ${v['invoice.due_amount']}`,
    `${l.dueDate}: ${v['invoice.due_date']}`,
    i.reference_number ? `${l.referenceNumber}: ${i.reference_number}` : '',
    i.seller_iban ? `${l.iban}: ${i.seller_iban}` : '',
  ].filter(Boolean);
  const seller = i.seller_name ? ` - ${i.seller_name}` : '';
  return {
    to,
    subject: `${l.invoice} ${model.label}${seller}`.replace(/[\r\n]+/g, ' '),
    text: [`${l.invoice} ${model.label}`, ...facts, '', i.seller_name ?? ''].join('\n').trimEnd(),
    filename,
    pdf,
  };
}

export type { Delivery };

/** Through the service's one mail mechanism (content-templates): SMTP_URL, or logged without it. */
export const deliver = (config: Config, mail: InvoiceMail): Promise<Delivery> =>
  deliverMail(config, {
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html !== undefined ? { html: mail.html } : {}),
    attachments: [{ filename: mail.filename, content: mail.pdf, contentType: 'application/pdf' }],
  });
