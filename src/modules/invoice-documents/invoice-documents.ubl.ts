import { Dec } from '../../platform/money.ts';
import type { InvoiceHeader } from './invoice-documents.repository.ts';
import type { DocumentLine, InvoiceDocument, TaxGroup } from './invoice-documents.model.ts';

/**
 * The invoice as an EN 16931 UBL 2.1 Invoice (the e-invoicing format EU buyers increasingly require),
 * Peppol BIS Billing 3.0 profile. Elements follow the UBL schema's order; every text is XML-escaped;
 * amounts carry exactly two places and add up: lines to LineExtensionAmount, rates to TaxAmount.
 */
export const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017';
export const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const ROOT_ATTRIBUTES =
  'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ' +
  'xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" ' +
  'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';

// Characters XML 1.0 cannot carry at all (controls other than tab and newlines, lone surrogates, U+FFFE/F).
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

export const escapeXml = (text: string): string =>
  text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/** <tag attrs>escaped text</tag>, or nothing for an empty value. */
const el = (tag: string, value: string | null | undefined, attrs = ''): string =>
  value === null || value === undefined || value === '' ? '' : `<${tag}${attrs}>${escapeXml(value)}</${tag}>`;
/** <tag>children</tag>, or nothing when every child was empty. */
const group = (tag: string, ...children: string[]): string => {
  const inner = children.join('');
  return inner === '' ? '' : `<${tag}>${inner}</${tag}>`;
};

// UN/ECE Recommendation 20 codes for the units people type; anything else is "one" (C62).
const UNIT_CODES: Record<string, string> = {
  h: 'HUR',
  hr: 'HUR',
  hour: 'HUR',
  hours: 'HUR',
  t: 'HUR',
  tund: 'HUR',
  std: 'HUR',
  min: 'MIN',
  day: 'DAY',
  days: 'DAY',
  päev: 'DAY',
  month: 'MON',
  months: 'MON',
  kuu: 'MON',
  kg: 'KGM',
  km: 'KMT',
  pcs: 'H87',
  pc: 'H87',
  tk: 'H87',
  stk: 'H87',
  kpl: 'H87',
};
export const unitCode = (unit: string | null): string => UNIT_CODES[(unit ?? '').trim().toLowerCase()] ?? 'C62';

/** The country of a party: its stored code, else the prefix of an EU VAT number (EL is Greece, GR). */
export function countryOf(code: string | null | undefined, vat: string | null | undefined): string | undefined {
  if (code && /^[A-Za-z]{2}$/.test(code.trim())) return code.trim().toUpperCase();
  const prefix = /^([A-Z]{2})/.exec((vat ?? '').trim().toUpperCase())?.[1];
  return prefix === 'EL' ? 'GR' : prefix;
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

function party(p: {
  name: string;
  address: string | null;
  country: string | undefined;
  vat: string | null;
  reg: string | null;
  contact: string | null;
}): string {
  const email = p.contact && EMAIL.test(p.contact.trim()) ? p.contact.trim() : undefined;
  return group(
    'cac:Party',
    group('cac:PartyName', el('cbc:Name', p.name)),
    group(
      'cac:PostalAddress',
      el('cbc:StreetName', p.address),
      group('cac:Country', el('cbc:IdentificationCode', p.country)),
    ),
    p.vat ? group('cac:PartyTaxScheme', el('cbc:CompanyID', p.vat), group('cac:TaxScheme', el('cbc:ID', 'VAT'))) : '',
    group('cac:PartyLegalEntity', el('cbc:RegistrationName', p.name), el('cbc:CompanyID', p.reg)),
    group('cac:Contact', email ? '' : el('cbc:Name', p.contact), el('cbc:ElectronicMail', email)),
  );
}

function parties(i: InvoiceHeader): string {
  const seller = party({
    name: i.seller_name ?? '',
    address: i.seller_address,
    country: countryOf(null, i.seller_vat_code),
    vat: i.seller_vat_code,
    reg: i.seller_reg_code,
    contact: i.seller_contact,
  });
  const buyer = party({
    name: i.client_name,
    address: i.client_address,
    country: countryOf(i.client_country_code, i.client_vat_code),
    vat: i.client_vat_code,
    reg: i.client_reg_code,
    contact: i.client_contact,
  });
  return group('cac:AccountingSupplierParty', seller) + group('cac:AccountingCustomerParty', buyer);
}

function paymentMeans(i: InvoiceHeader): string {
  if (!i.seller_iban && !i.reference_number) return '';
  return group(
    'cac:PaymentMeans',
    el('cbc:PaymentMeansCode', '30'),
    el('cbc:PaymentID', i.reference_number),
    group(
      'cac:PayeeFinancialAccount',
      el('cbc:ID', i.seller_iban?.replace(/\s+/g, '')),
      el('cbc:Name', i.seller_name),
      group('cac:FinancialInstitutionBranch', el('cbc:Name', i.seller_bank)),
    ),
  );
}

function taxCategory(tag: string, category: string, percent: string): string {
  return group(
    tag,
    el('cbc:ID', category),
    el('cbc:Percent', percent),
    category === 'E' ? el('cbc:TaxExemptionReason', 'Exempt from VAT') : '',
    group('cac:TaxScheme', el('cbc:ID', 'VAT')),
  );
}

function taxTotal(model: InvoiceDocument, cur: string): string {
  const subtotal = (g: TaxGroup) =>
    group(
      'cac:TaxSubtotal',
      el('cbc:TaxableAmount', g.taxable, cur),
      el('cbc:TaxAmount', g.tax, cur),
      taxCategory('cac:TaxCategory', g.category, g.percent),
    );
  return group('cac:TaxTotal', el('cbc:TaxAmount', model.totals.tax, cur), ...model.taxes.map(subtotal));
}

function monetaryTotal(model: InvoiceDocument, cur: string): string {
  const t = model.totals;
  return group(
    'cac:LegalMonetaryTotal',
    el('cbc:LineExtensionAmount', t.net, cur),
    el('cbc:TaxExclusiveAmount', t.net, cur),
    el('cbc:TaxInclusiveAmount', t.total, cur),
    el('cbc:PrepaidAmount', t.paid, cur),
    el('cbc:PayableAmount', t.due, cur),
  );
}

/** The unit price with at least two places (it is stored with up to four; a price is not a sum). */
const unitPrice = (price: string) => {
  const exact = new Dec(price);
  return exact.toFixed(Math.max(2, exact.decimalPlaces()));
};

function invoiceLine(line: DocumentLine, index: number, cur: string): string {
  const { row } = line;
  const discount = new Dec(line.discount).isZero()
    ? ''
    : group(
        'cac:AllowanceCharge',
        el('cbc:ChargeIndicator', 'false'),
        el('cbc:AllowanceChargeReason', 'Discount'),
        el('cbc:Amount', line.discount, cur),
      );
  return group(
    'cac:InvoiceLine',
    el('cbc:ID', String(index + 1)),
    el('cbc:InvoicedQuantity', new Dec(row.quantity).toFixed(), ` unitCode="${unitCode(row.unit)}"`),
    el('cbc:LineExtensionAmount', line.net, cur),
    discount,
    group(
      'cac:Item',
      el('cbc:Name', row.description || '-'),
      taxCategory('cac:ClassifiedTaxCategory', line.category, line.percent),
    ),
    group('cac:Price', el('cbc:PriceAmount', unitPrice(row.net_price), cur)),
  );
}

function references(i: InvoiceHeader): string {
  return (
    el('cbc:BuyerReference', i.reference_number) +
    group(
      'cac:InvoicePeriod',
      el('cbc:StartDate', i.period_from),
      el('cbc:EndDate', i.period_until),
      el('cbc:Description', i.period_label),
    ) +
    (i.contract_id === null ? '' : group('cac:ContractDocumentReference', el('cbc:ID', String(i.contract_id))))
  );
}

export function renderUbl(model: InvoiceDocument): string {
  const i = model.invoice;
  const cur = ` currencyID="${escapeXml(i.currency)}"`;
  const body = [
    el('cbc:CustomizationID', CUSTOMIZATION_ID),
    el('cbc:ProfileID', PROFILE_ID),
    el('cbc:ID', i.invoice_number ?? model.label.toUpperCase()),
    el('cbc:IssueDate', i.invoice_date.slice(0, 10)),
    el('cbc:DueDate', i.due_date.slice(0, 10)),
    el('cbc:InvoiceTypeCode', '380'),
    el('cbc:Note', i.comments),
    el('cbc:DocumentCurrencyCode', i.currency),
    references(i),
    parties(i),
    paymentMeans(i),
    taxTotal(model, cur),
    monetaryTotal(model, cur),
    ...model.lines.map((line, index) => invoiceLine(line, index, cur)),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice ${ROOT_ATTRIBUTES}>${body.join('')}</Invoice>\n`;
}
