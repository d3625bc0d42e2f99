import type { AllowanceCharge, At, EInvoice, Line, Party, Period, TaxTotal, VatCategory } from './einvoice.model.ts';
import { walk, type XmlNode } from './einvoice.xml.ts';

/**
 * The UBL 2.1 binding: reads an Invoice or a CreditNote into the model of business terms (the EN 16931 UBL
 * syntax binding). CreditNote differs only in its names: CreditNoteTypeCode, CreditNoteLine, CreditedQuantity.
 */
const DATE_ELEMENTS = new Set(['IssueDate', 'DueDate', 'TaxPointDate', 'StartDate', 'EndDate', 'ActualDeliveryDate']);

const isVat = (scheme: XmlNode) => scheme.value('TaxScheme', 'ID')?.value.toUpperCase() === 'VAT';

function party(node: XmlNode | undefined, at: string): Party {
  if (!node) return { at, identifiers: [] };
  const schemes = node.all('PartyTaxScheme');
  const endpoint = node.one('EndpointID');
  const address = node.one('PostalAddress');
  return {
    at: node.at,
    name: node.value('PartyLegalEntity', 'RegistrationName'),
    endpoint: endpoint && { id: endpoint.text(), scheme: endpoint.attr('schemeID'), at: endpoint.at },
    address: address && { country: address.value('Country', 'IdentificationCode'), at: address.at },
    vatId: schemes.find(isVat)?.value('CompanyID'),
    taxRegId: schemes.find((s) => !isVat(s))?.value('CompanyID'),
    legalId: node.value('PartyLegalEntity', 'CompanyID'),
    identifiers: node
      .all('PartyIdentification')
      .filter((p) => p.one('ID')?.attr('schemeID') !== 'SEPA')
      .map((p) => p.value('ID'))
      .filter((v): v is At => v !== undefined),
  };
}

function category(node: XmlNode | undefined): VatCategory | undefined {
  if (!node) return undefined;
  return {
    code: node.value('ID'),
    rate: node.value('Percent'),
    exemptionReason: node.value('TaxExemptionReason'),
    exemptionCode: node.value('TaxExemptionReasonCode'),
    at: node.at,
  };
}

function allowanceCharge(node: XmlNode): AllowanceCharge {
  const indicator = node.value('ChargeIndicator')?.value ?? '';
  return {
    charge: indicator.trim() === 'true',
    chargeIndicator: indicator,
    amount: node.value('Amount'),
    base: node.value('BaseAmount'),
    percent: node.value('MultiplierFactorNumeric'),
    reason: node.value('AllowanceChargeReason'),
    reasonCode: node.value('AllowanceChargeReasonCode'),
    vat: category(node.one('TaxCategory')),
    at: node.at,
  };
}

const split = (list: AllowanceCharge[]) => [list.filter((a) => !a.charge), list.filter((a) => a.charge)] as const;

function period(node: XmlNode | undefined): Period | undefined {
  return node && { start: node.value('StartDate'), end: node.value('EndDate'), at: node.at };
}

function line(node: XmlNode, quantityName: string): Line {
  const quantity = node.one(quantityName);
  const price = node.one('Price');
  const base = price?.one('BaseQuantity');
  const baseUnit = base?.attr('unitCode');
  const priceAllowance = price?.one('AllowanceCharge');
  const [allowances, charges] = split(node.all('AllowanceCharge').map(allowanceCharge));
  return {
    at: node.at,
    id: node.value('ID'),
    quantity: quantity && { value: quantity.text(), at: quantity.at },
    unit: quantity?.attr('unitCode') === undefined ? undefined : { value: quantity.attr('unitCode')!, at: quantity.at },
    net: node.value('LineExtensionAmount'),
    itemName: node.value('Item', 'Name'),
    price: price?.value('PriceAmount'),
    priceAllowance: priceAllowance && allowanceCharge(priceAllowance),
    baseQuantity: price?.value('BaseQuantity'),
    baseQuantityUnit: base && baseUnit !== undefined ? { value: baseUnit, at: base.at } : undefined,
    vat: category(node.path('Item', 'ClassifiedTaxCategory')),
    allowances,
    charges,
    period: period(node.one('InvoicePeriod')),
  };
}

function taxTotal(node: XmlNode): TaxTotal {
  return {
    amount: node.value('TaxAmount'),
    currency: node.one('TaxAmount')?.attr('currencyID'),
    at: node.at,
    breakdown: node.all('TaxSubtotal').map((s) => ({
      taxable: s.value('TaxableAmount'),
      tax: s.value('TaxAmount'),
      category: category(s.one('TaxCategory')) ?? { at: s.at },
      at: s.at,
    })),
  };
}

function totals(node: XmlNode | undefined): EInvoice['totals'] {
  if (!node) return undefined;
  return {
    lineNet: node.value('LineExtensionAmount'),
    allowances: node.value('AllowanceTotalAmount'),
    charges: node.value('ChargeTotalAmount'),
    taxExclusive: node.value('TaxExclusiveAmount'),
    taxInclusive: node.value('TaxInclusiveAmount'),
    paid: node.value('PrepaidAmount'),
    rounding: node.value('PayableRoundingAmount'),
    payable: node.value('PayableAmount'),
    at: node.at,
  };
}

/** UBL-DT-01 judges every ...Amount but prices and what sits in a price's allowance. */
const isAmount = (node: XmlNode) =>
  node.name.endsWith('Amount') &&
  !node.name.endsWith('PriceAmount') &&
  !/\/Price\[\d+\]\/AllowanceCharge\[/.test(node.at);

/** What the whole-document rules look at: currencies, empty elements, dates. */
function scan(root: XmlNode): Pick<EInvoice, 'currencyIds' | 'emptyElements' | 'dates' | 'amounts'> {
  const found: Pick<EInvoice, 'currencyIds' | 'emptyElements' | 'dates' | 'amounts'> = {
    currencyIds: [],
    emptyElements: [],
    amounts: [],
    dates: [],
  };
  for (const node of walk(root)) {
    const currency = node.attr('currencyID');
    if (currency !== undefined) found.currencyIds.push({ value: currency, at: node.at });
    if (node.isEmpty()) found.emptyElements.push(node.at);
    if (isAmount(node)) found.amounts.push({ value: node.text(), at: node.at });
    if (DATE_ELEMENTS.has(node.name)) found.dates.push({ value: node.text(), at: node.at });
  }
  return found;
}

/** Reads a UBL Invoice or CreditNote root; undefined for any other root element. */
export function readUbl(root: XmlNode): EInvoice | undefined {
  if (root.name !== 'Invoice' && root.name !== 'CreditNote') return undefined;
  const credit = root.name === 'CreditNote';
  const [allowances, charges] = split(root.all('AllowanceCharge').map(allowanceCharge));
  const delivery = root.one('Delivery');
  return {
    syntax: 'ubl',
    kind: credit ? 'credit-note' : 'invoice',
    root: root.at,
    customizationId: root.value('CustomizationID'),
    profileId: root.value('ProfileID'),
    number: root.value('ID'),
    issueDate: root.value('IssueDate'),
    dueDate: root.value('DueDate') ?? root.value('PaymentMeans', 'PaymentDueDate'),
    paymentTerms: root.value('PaymentTerms', 'Note'),
    typeCode: root.value(credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'),
    currency: root.value('DocumentCurrencyCode'),
    taxCurrency: root.value('TaxCurrencyCode'),
    notes: root.all('Note').map((n) => ({ value: n.text(), at: n.at })),
    buyerReference: root.value('BuyerReference'),
    orderReference: root.value('OrderReference', 'ID'),
    period: period(root.one('InvoicePeriod')),
    precedingInvoices: root
      .all('BillingReference')
      .map((b) => ({ id: b.value('InvoiceDocumentReference', 'ID'), at: b.at })),
    seller: party(root.path('AccountingSupplierParty', 'Party'), `${root.at}/AccountingSupplierParty`),
    buyer: party(root.path('AccountingCustomerParty', 'Party'), `${root.at}/AccountingCustomerParty`),
    taxRepresentative: root.one('TaxRepresentativeParty') && party(root.one('TaxRepresentativeParty'), ''),
    deliveryCountry: delivery?.value('DeliveryLocation', 'Address', 'Country', 'IdentificationCode'),
    deliveryDate: delivery?.value('ActualDeliveryDate'),
    paymentMeans: root.all('PaymentMeans').map((p) => ({
      code: p.value('PaymentMeansCode'),
      accounts: p.all('PayeeFinancialAccount').map((a) => a.value('ID') ?? { value: '', at: a.at }),
      mandate: p.value('PaymentMandate', 'ID'),
      at: p.at,
    })),
    allowances,
    charges,
    taxTotals: root.all('TaxTotal').map(taxTotal),
    totals: totals(root.one('LegalMonetaryTotal')),
    lines: root
      .all(credit ? 'CreditNoteLine' : 'InvoiceLine')
      .map((l) => line(l, credit ? 'CreditedQuantity' : 'InvoicedQuantity')),
    ...scan(root),
  };
}
