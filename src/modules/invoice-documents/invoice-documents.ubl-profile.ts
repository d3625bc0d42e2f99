import { fail } from '../../platform/errors.ts';
import type { InvoiceHeader } from './invoice-documents.repository.ts';
import type { InvoiceDocument } from './invoice-documents.model.ts';
import { sellerOf } from './invoice-documents.ubl-parties.ts';

/**
 * Which UBL rule set a document claims (decision 0063): Peppol BIS Billing 3.0 when both parties have an
 * electronic address, XRechnung 3.0 when asked for (and its CIUS rules are met), else plain EN 16931.
 */
export type UblFlavour = 'en16931' | 'peppol' | 'xrechnung';

export const CUSTOMIZATION = {
  en16931: 'urn:cen.eu:en16931:2017',
  peppol: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
} as const;
export const PEPPOL_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
/** EAS 0204: the German Leitweg-ID, the routing id German public buyers give as their buyer reference. */
export const LEITWEG_SCHEME = '0204';

const blank = (value: string | null | undefined) => (value ?? '').trim() === '';
export const hasEndpoints = (i: InvoiceHeader) => !blank(i.seller_endpoint_id) && !blank(i.client_endpoint_id);

/** The format=ubl document: Peppol when both electronic addresses are on the invoice, else plain EN 16931. */
export const ublFlavour = (i: InvoiceHeader): UblFlavour => (hasEndpoints(i) ? 'peppol' : 'en16931');

/**
 * BT-10, the buyer reference: the buyer's Leitweg-ID (its electronic address in scheme 0204), else the
 * invoice's reference_number. Peppol requires one (PEPPOL-EN16931-R003): failing both, the invoice number,
 * which the buyer sees on every copy and can route by. A plain EN 16931 document needs none.
 */
export function buyerReference(i: InvoiceHeader, flavour: UblFlavour): string | null {
  if (i.client_endpoint_scheme === LEITWEG_SCHEME && !blank(i.client_endpoint_id)) return i.client_endpoint_id;
  if (!blank(i.reference_number)) return i.reference_number;
  return flavour === 'peppol' ? i.invoice_number : null;
}

/**
 * What XRechnung 3.0 (its BR-DE-* rules) needs beyond EN 16931, by the field to fill: both electronic addresses
 * (BT-34, BT-49), the seller's city and postcode (BR-DE-3/4), a seller contact with name, telephone and
 * e-mail (BR-DE-2/5/6/7), the buyer's city and postcode (BR-DE-8/9), payment instructions (BR-DE-1: an IBAN
 * to pay to) and the buyer reference (BR-DE-15: the Leitweg-ID or the reference number).
 */
export function missingForXRechnung(model: InvoiceDocument, buyer: { city: string | null; zip: string | null }) {
  const i = model.invoice;
  const seller = i.seller_name ? sellerOf(i) : undefined;
  const checks: Array<[boolean, string]> = [
    [blank(i.seller_endpoint_id), 'invoice_seller.endpoint_id'],
    [blank(i.client_endpoint_id), 'client.endpoint_id'],
    [blank(i.seller_city), 'invoice_seller.address_city'],
    [blank(i.seller_zip), 'invoice_seller.address_zip'],
    [blank(seller?.contactName) || blank(seller?.email), 'invoice.seller_contact'],
    [blank(i.seller_phone), 'invoice_seller.phone'],
    [blank(buyer.city), 'client.address_city'],
    [blank(buyer.zip), 'client.address_zip'],
    [blank(i.seller_iban), 'invoice_seller.iban_1'],
    [buyerReference(i, 'xrechnung') === null, 'invoice.reference_number or client.endpoint_id (scheme 0204)'],
  ];
  return checks.filter(([lacking]) => lacking).map(([, field]) => field);
}

/** 422 EINVOICE_DATA_MISSING naming what XRechnung needs and the records lack. */
export function assertXRechnungComplete(missing: string[]): void {
  if (missing.length > 0)
    fail('EINVOICE_DATA_MISSING', `An XRechnung invoice needs ${missing.join(', ')}`, { missing });
}
