import { Dec } from '../../platform/money.ts';
import type { InvoiceHeader } from './invoice-documents.repository.ts';
import type { DocumentLine, InvoiceDocument, TaxCategory, TaxGroup } from './invoice-documents.model.ts';
import { assertUblComplete, buyerOf, sellerOf, type UblParty } from './invoice-documents.ubl-parties.ts';
import {
  buyerReference,
  CUSTOMIZATION,
  missingForXRechnung,
  PEPPOL_PROFILE,
  ublFlavour,
  type UblFlavour,
} from './invoice-documents.ubl-profile.ts';

/**
 * The invoice as an EN 16931 UBL 2.1 Invoice (the e-invoicing format EU buyers increasingly require): Peppol
 * BIS Billing 3.0 when both parties have electronic addresses, XRechnung 3.0 on request, else plain EN 16931
 * (decisions 0056, 0063). Elements follow the UBL schema's order; every text is XML-escaped;
 * amounts carry exactly two places and add up: lines to LineExtensionAmount, rates to TaxAmount.
 */
export const CUSTOMIZATION_ID = CUSTOMIZATION.en16931;

/**
 * An invoice is a UBL Invoice (type 380); a credit note a UBL CreditNote (type 381, decision 0064), whose
 * elements differ only in name (CreditNoteLine, CreditedQuantity), in BillingReference (BG-3, the invoice it
 * credits) and in having no DueDate: its due date is the day it is issued, so payment terms say it instead.
 */
const KIND = {
  invoice: {
    root: 'Invoice',
    typeCode: ['cbc:InvoiceTypeCode', '380'],
    line: 'cac:InvoiceLine',
    quantity: 'cbc:InvoicedQuantity',
  },
  credit_note: {
    root: 'CreditNote',
    typeCode: ['cbc:CreditNoteTypeCode', '381'],
    line: 'cac:CreditNoteLine',
    quantity: 'cbc:CreditedQuantity',
  },
} as const;
type Kind = (typeof KIND)[keyof typeof KIND];
const kindOf = (i: InvoiceHeader): Kind => KIND[i.type];

const rootAttributes = (kind: Kind) =>
  `xmlns="urn:oasis:names:specification:ubl:schema:xsd:${kind.root}-2" ` +
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
export const el = (tag: string, value: string | null | undefined, attrs = ''): string =>
  value === null || value === undefined || value === '' ? '' : `<${tag}${attrs}>${escapeXml(value)}</${tag}>`;
/** <tag>children</tag>, or nothing when every child was empty. */
export const group = (tag: string, ...children: string[]): string => {
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

/** BR-O-02: a document with a "not subject to VAT" row names no VAT identifier, the buyer's neither. */
function party(p: UblParty, showVat: boolean): string {
  return group(
    'cac:Party',
    p.endpoint ? el('cbc:EndpointID', p.endpoint.id, ` schemeID="${escapeXml(p.endpoint.scheme)}"`) : '',
    group('cac:PartyName', el('cbc:Name', p.name)),
    group(
      'cac:PostalAddress',
      el('cbc:StreetName', p.street),
      el('cbc:CityName', p.city),
      el('cbc:PostalZone', p.zip),
      el('cbc:CountrySubentity', p.state),
      group('cac:Country', el('cbc:IdentificationCode', p.country)),
    ),
    showVat && p.vat
      ? group('cac:PartyTaxScheme', el('cbc:CompanyID', p.vat), group('cac:TaxScheme', el('cbc:ID', 'VAT')))
      : '',
    group('cac:PartyLegalEntity', el('cbc:RegistrationName', p.name), el('cbc:CompanyID', p.reg)),
    group(
      'cac:Contact',
      el('cbc:Name', p.contactName),
      el('cbc:Telephone', p.phone),
      el('cbc:ElectronicMail', p.email),
    ),
  );
}

function parties(model: InvoiceDocument): string {
  const showVat = !model.lines.some((l) => l.category === 'O');
  return (
    group('cac:AccountingSupplierParty', party(sellerOf(model.invoice), showVat)) +
    group('cac:AccountingCustomerParty', party(buyerOf(model.invoice), showVat))
  );
}

function paymentMeans(i: InvoiceHeader): string {
  if (!i.seller_iban && !i.reference_number) return '';
  return group(
    'cac:PaymentMeans',
    el('cbc:PaymentMeansCode', '30'),
    el('cbc:PaymentID', i.reference_number),
    group('cac:PayeeFinancialAccount', el('cbc:ID', i.seller_iban?.replace(/\s+/g, '')), el('cbc:Name', i.seller_name)),
  );
}

export const EXEMPTION: Partial<Record<TaxCategory, string>> = { E: 'Exempt from VAT', O: 'Not subject to VAT' };

/**
 * The reason belongs to the breakdown only (BR-E-10, BR-O-10; UBL-CR-601 on lines); O has no rate (BR-O-05),
 * but XRechnung wants one in every breakdown (BR-DE-14; BR-48 allows it): `ratedO` writes 0 there.
 */
function taxCategory(tag: string, category: TaxCategory, percent: string, withReason: boolean, ratedO = false): string {
  return group(
    tag,
    el('cbc:ID', category),
    category === 'O' && !ratedO ? '' : el('cbc:Percent', percent),
    withReason ? el('cbc:TaxExemptionReason', EXEMPTION[category]) : '',
    group('cac:TaxScheme', el('cbc:ID', 'VAT')),
  );
}

function taxTotal(model: InvoiceDocument, cur: string, flavour: UblFlavour): string {
  const subtotal = (g: TaxGroup) =>
    group(
      'cac:TaxSubtotal',
      el('cbc:TaxableAmount', g.taxable, cur),
      el('cbc:TaxAmount', g.tax, cur),
      taxCategory('cac:TaxCategory', g.category, g.percent, true, flavour === 'xrechnung'),
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
export const unitPrice = (price: string) => {
  const exact = new Dec(price);
  return exact.toFixed(Math.max(2, exact.decimalPlaces()));
};

/** BR-27: a price is never negative, so a deduction row (negative price) is written as a negative quantity. */
export function quantityAndPrice(row: DocumentLine['row']): [Dec, Dec] {
  const [quantity, price] = [new Dec(row.quantity), new Dec(row.net_price)];
  return price.isNegative() ? [quantity.negated(), price.negated()] : [quantity, price];
}

function invoiceLine(line: DocumentLine, index: number, cur: string, kind: Kind): string {
  const { row } = line;
  const [quantity, price] = quantityAndPrice(row);
  const discount = new Dec(line.discount).isZero()
    ? ''
    : group(
        'cac:AllowanceCharge',
        el('cbc:ChargeIndicator', 'false'),
        el('cbc:AllowanceChargeReason', 'Discount'),
        el('cbc:Amount', line.discount, cur),
      );
  return group(
    kind.line,
    el('cbc:ID', String(index + 1)),
    el(kind.quantity, quantity.toFixed(), ` unitCode="${unitCode(row.unit)}"`),
    el('cbc:LineExtensionAmount', line.net, cur),
    // BG-26, the row's service period (the engine fills it with the billed period).
    group('cac:InvoicePeriod', el('cbc:StartDate', row.period_start), el('cbc:EndDate', row.period_end)),
    discount,
    group(
      'cac:Item',
      el('cbc:Name', row.description || '-'),
      taxCategory('cac:ClassifiedTaxCategory', line.category, line.percent, false),
    ),
    group('cac:Price', el('cbc:PriceAmount', unitPrice(price.toFixed()), cur)),
  );
}

function references(i: InvoiceHeader, flavour: UblFlavour): string {
  return (
    el('cbc:BuyerReference', buyerReference(i, flavour)) +
    group('cac:InvoicePeriod', el('cbc:StartDate', i.period_from), el('cbc:EndDate', i.period_until)) +
    group(
      'cac:BillingReference',
      group('cac:InvoiceDocumentReference', el('cbc:ID', i.credited_number), el('cbc:IssueDate', i.credited_date)),
    ) +
    (i.contract_id === null ? '' : group('cac:ContractDocumentReference', el('cbc:ID', String(i.contract_id))))
  );
}

/** The document, or 422 EINVOICE_DATA_MISSING when the records lack what EN 16931 (or XRechnung) requires. */
export function renderUbl(model: InvoiceDocument, flavour: UblFlavour = ublFlavour(model.invoice)): string {
  const i = model.invoice;
  assertUblComplete(model, flavour === 'xrechnung' ? missingForXRechnung(model, buyerOf(i)) : []);
  const cur = ` currencyID="${escapeXml(i.currency)}"`;
  const kind = kindOf(i);
  const credit = kind === KIND.credit_note;
  const body = [
    el('cbc:CustomizationID', CUSTOMIZATION[flavour]),
    flavour === 'peppol' ? el('cbc:ProfileID', PEPPOL_PROFILE) : '',
    el('cbc:ID', i.invoice_number ?? model.label.toUpperCase()),
    el('cbc:IssueDate', i.invoice_date.slice(0, 10)),
    credit ? '' : el('cbc:DueDate', i.due_date.slice(0, 10)),
    el(kind.typeCode[0], kind.typeCode[1]),
    el('cbc:Note', i.comments),
    el('cbc:DocumentCurrencyCode', i.currency),
    references(i, flavour),
    parties(model),
    paymentMeans(i),
    credit ? group('cac:PaymentTerms', el('cbc:Note', `Credits invoice ${i.credited_number ?? ''}`.trim())) : '',
    taxTotal(model, cur, flavour),
    monetaryTotal(model, cur),
    ...model.lines.map((line, index) => invoiceLine(line, index, cur, kind)),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${kind.root} ${rootAttributes(kind)}>${body.join('')}</${kind.root}>\n`;
}
