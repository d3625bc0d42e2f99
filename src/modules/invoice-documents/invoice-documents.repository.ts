import type { Ctx } from '../../platform/context.ts';
import { clientAddressParts, type ClientAddressParts } from '../clients/index.ts';
import { storedInvoice, type StoredInvoice, type StoredInvoiceRow } from '../invoices/index.ts';

/** On a credit note: the number and date of the invoice it credits (BG-3), else nulls. */
export interface CreditedInvoice {
  credited_number: string | null;
  credited_date: string | null;
}
export type InvoiceHeader = StoredInvoice & ClientAddressParts & CreditedInvoice;
export type InvoiceRow = StoredInvoiceRow;

const NO_ADDRESS: ClientAddressParts = {
  client_country_code: null,
  client_street: null,
  client_city: null,
  client_zip: null,
  client_state: null,
};

/** The invoice as its documents show it: the stored snapshot, plus the client's address parts (the snapshot has one line). */
export async function findHeader(ctx: Ctx, id: number): Promise<InvoiceHeader | undefined> {
  const invoice = await storedInvoice(ctx, id);
  if (!invoice) return undefined;
  const credited =
    invoice.credited_invoice_id === null ? undefined : await storedInvoice(ctx, invoice.credited_invoice_id);
  return {
    ...invoice,
    ...((await clientAddressParts(ctx, invoice.client_id)) ?? NO_ADDRESS),
    credited_number: credited?.invoice_number ?? null,
    credited_date: credited?.invoice_date ?? null,
  };
}
