import type { Ctx } from '../../platform/context.ts';
import { clientAddressParts, type ClientAddressParts } from '../clients/index.ts';
import { storedInvoice, type StoredInvoice, type StoredInvoiceRow } from '../invoices/index.ts';

export type InvoiceHeader = StoredInvoice & ClientAddressParts;
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
  return { ...invoice, ...((await clientAddressParts(ctx, invoice.client_id)) ?? NO_ADDRESS) };
}
