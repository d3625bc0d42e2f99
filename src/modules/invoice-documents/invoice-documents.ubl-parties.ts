import { fail } from '../../platform/errors.ts';
import type { InvoiceHeader } from './invoice-documents.repository.ts';
import type { InvoiceDocument } from './invoice-documents.model.ts';

/** A party as EN 16931 wants it: address in its parts, country always, contact split into name and e-mail. */
export interface UblParty {
  name: string;
  street: string | null;
  city: string | null;
  zip: string | null;
  state: string | null;
  country: string;
  vat: string | null;
  reg: string | null;
  contactName: string | null;
  phone: string | null;
  email: string | null;
  /** The electronic address (BT-34/BT-49) in its EAS scheme, when the invoice carries one. */
  endpoint: { id: string; scheme: string } | null;
}

// BR-CL-14 wants an ISO 3166-1 country: Intl knows them, but also regions and reserved codes, left out here.
const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const NOT_COUNTRIES = new Set(['AC', 'CP', 'DG', 'EA', 'EU', 'EZ', 'IC', 'QO', 'TA', 'UN', 'ZZ']);
const isCountry = (code: string) =>
  /^[A-Z]{2}$/.test(code) && (code === 'XI' || (!NOT_COUNTRIES.has(code) && REGIONS.of(code) !== undefined));
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** A two-letter prefix of an EU VAT number or an IBAN (EL in a VAT number is Greece, GR). */
function prefixCountry(code: string | null | undefined): string | undefined {
  const prefix = /^([A-Z]{2})/.exec((code ?? '').replace(/\s+/g, '').toUpperCase())?.[1];
  const country = prefix === 'EL' ? 'GR' : prefix;
  return country && isCountry(country) ? country : undefined;
}

/** The country of a party: its stored code, else the prefix of its VAT number, else of its IBAN. */
export function countryOf(code: string | null | undefined, vat?: string | null, iban?: string | null) {
  const stored = (code ?? '').trim().toUpperCase();
  if (isCountry(stored)) return stored;
  return prefixCountry(vat) ?? prefixCountry(iban);
}

/** "Name Surname <e-mail>" (how invoices snapshot a contact), a bare e-mail, or a bare name. */
export function splitContact(contact: string | null): { contactName: string | null; email: string | null } {
  const text = (contact ?? '').trim();
  const angled = /^(.*?)\s*<([^<>]+)>$/.exec(text);
  const [name, email] = angled ? [angled[1]!.trim(), angled[2]!.trim()] : EMAIL.test(text) ? ['', text] : [text, ''];
  return { contactName: name || null, email: EMAIL.test(email) ? email : null };
}

const blank = (value: string | null | undefined) => (value ?? '').trim() === '';

/**
 * What EN 16931 needs that the records lack, by the field to fill: a row (BR-16), a seller (BR-06), its country (BR-09) comes from
 * its VAT number or IBAN, the buyer's (BR-11) from the client's country or VAT number; a seller without a
 * VAT number cannot charge VAT on a row (BR-S-02, BR-Z-02). The PDF needs none of these.
 */
export function missingForUbl(model: InvoiceDocument): string[] {
  const i = model.invoice;
  const missing: string[] = [];
  // BR-16 and BR-CO-18: at least one line and one VAT breakdown.
  if (model.lines.length === 0) missing.push('invoice.rows');
  // BR-06: the seller's name; an invoice the engine made has no seller until one is chosen.
  if (blank(i.seller_name)) missing.push('invoice.seller_id');
  else if (!countryOf(null, i.seller_vat_code, i.seller_iban)) missing.push('invoice_seller.vat_number or iban_1');
  if (!countryOf(i.client_country_code, i.client_vat_code)) missing.push('client.address_country_code');
  if (blank(i.seller_vat_code) && model.lines.some((l) => l.category === 'S' || l.category === 'Z'))
    missing.push('invoice_seller.vat_number');
  return missing;
}

/** 422 EINVOICE_DATA_MISSING naming the fields (EN 16931's, then a CIUS's `extra`), before anything is written. */
export function assertUblComplete(model: InvoiceDocument, extra: string[] = []): void {
  const missing = [...missingForUbl(model), ...extra];
  if (missing.length > 0) fail('EINVOICE_DATA_MISSING', `An EN 16931 invoice needs ${missing.join(', ')}`, { missing });
}

const endpointOf = (id: string | null, scheme: string | null) =>
  blank(id) || blank(scheme) ? null : { id: id!, scheme: scheme! };

/** The seller's free-text address is the street line; its city and postcode come apart when the seller has them. */
export function sellerOf(i: InvoiceHeader): UblParty {
  return {
    name: i.seller_name ?? '',
    street: i.seller_address,
    city: i.seller_city,
    zip: i.seller_zip,
    state: null,
    country: countryOf(null, i.seller_vat_code, i.seller_iban)!,
    vat: i.seller_vat_code,
    reg: i.seller_reg_code,
    ...splitContact(i.seller_contact),
    phone: i.seller_phone,
    endpoint: endpointOf(i.seller_endpoint_id, i.seller_endpoint_scheme),
  };
}

/** The client's address parts when the record has them, else the snapshot's one line as the street. */
export function buyerOf(i: InvoiceHeader): UblParty {
  const parts = !blank(i.client_street) || !blank(i.client_city) || !blank(i.client_zip);
  return {
    name: i.client_name,
    street: parts ? i.client_street : i.client_address,
    city: parts ? i.client_city : null,
    zip: parts ? i.client_zip : null,
    state: parts ? i.client_state : null,
    country: countryOf(i.client_country_code, i.client_vat_code)!,
    vat: i.client_vat_code,
    reg: i.client_reg_code,
    ...splitContact(i.client_contact),
    phone: null,
    endpoint: endpointOf(i.client_endpoint_id, i.client_endpoint_scheme),
  };
}
