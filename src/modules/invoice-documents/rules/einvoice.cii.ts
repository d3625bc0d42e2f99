import type { AllowanceCharge, At, EInvoice, Line, Party, Period, TaxTotal, VatCategory } from './einvoice.model.ts';
import { walk, type XmlNode } from './einvoice.xml.ts';

/**
 * The UN/CEFACT CII binding (CrossIndustryInvoice D16B, the syntax of Factur-X and ZUGFeRD): the same business
 * terms as the UBL binding, read from CII's names. Dates stay as CII writes them (YYYYMMDD, format 102), which
 * compare in order like UBL's. The Peppol rules judge UBL only, so nothing here feeds them.
 */
const text = (node: XmlNode | undefined): At | undefined => node && { value: node.text(), at: node.at };

function party(node: XmlNode | undefined, at: string): Party {
  if (!node) return { at, identifiers: [] };
  const registrations = node.all('SpecifiedTaxRegistration').map((r) => r.one('ID'));
  const byScheme = (scheme: string) => text(registrations.find((id) => id?.attr('schemeID') === scheme));
  const endpoint = node.path('URIUniversalCommunication', 'URIID');
  const address = node.one('PostalTradeAddress');
  return {
    at: node.at,
    name: node.value('Name'),
    endpoint: endpoint && { id: endpoint.text(), scheme: endpoint.attr('schemeID'), at: endpoint.at },
    address: address && { country: address.value('CountryID'), at: address.at },
    vatId: byScheme('VA'),
    taxRegId: byScheme('FC'),
    legalId: node.value('SpecifiedLegalOrganization', 'ID'),
    identifiers: [...node.all('ID'), ...node.all('GlobalID')].map((id) => text(id)!),
  };
}

function category(node: XmlNode | undefined): VatCategory | undefined {
  if (!node) return undefined;
  return {
    code: node.value('CategoryCode'),
    rate: node.value('RateApplicablePercent'),
    exemptionReason: node.value('ExemptionReason'),
    exemptionCode: node.value('ExemptionReasonCode'),
    at: node.at,
  };
}

function allowanceCharge(node: XmlNode): AllowanceCharge {
  const indicator = node.value('ChargeIndicator', 'Indicator')?.value ?? '';
  return {
    charge: indicator.trim() === 'true',
    chargeIndicator: indicator,
    amount: node.value('ActualAmount'),
    base: node.value('BasisAmount'),
    percent: node.value('CalculationPercent'),
    reason: node.value('Reason'),
    reasonCode: node.value('ReasonCode'),
    vat: category(node.one('CategoryTradeTax')),
    at: node.at,
  };
}

const split = (list: AllowanceCharge[]) => [list.filter((a) => !a.charge), list.filter((a) => a.charge)] as const;

function period(node: XmlNode | undefined): Period | undefined {
  if (!node) return undefined;
  return {
    start: node.value('StartDateTime', 'DateTimeString'),
    end: node.value('EndDateTime', 'DateTimeString'),
    at: node.at,
  };
}

function line(node: XmlNode): Line {
  const agreement = node.one('SpecifiedLineTradeAgreement');
  const settlement = node.one('SpecifiedLineTradeSettlement');
  const quantity = node.path('SpecifiedLineTradeDelivery', 'BilledQuantity');
  const net = agreement?.one('NetPriceProductTradePrice');
  const gross = agreement?.one('GrossPriceProductTradePrice');
  const priceAllowance = gross?.one('AppliedTradeAllowanceCharge');
  const base = net?.one('BasisQuantity');
  const [allowances, charges] = split((settlement?.all('SpecifiedTradeAllowanceCharge') ?? []).map(allowanceCharge));
  return {
    at: node.at,
    id: node.value('AssociatedDocumentLineDocument', 'LineID'),
    quantity: text(quantity),
    unit: quantity?.attr('unitCode') === undefined ? undefined : { value: quantity.attr('unitCode')!, at: quantity.at },
    net: settlement?.value('SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount'),
    itemName: node.value('SpecifiedTradeProduct', 'Name'),
    price: net?.value('ChargeAmount'),
    // BT-148, the gross price, plays the part of the UBL price allowance's base amount.
    priceAllowance: priceAllowance && { ...allowanceCharge(priceAllowance), base: gross?.value('ChargeAmount') },
    baseQuantity: text(base),
    baseQuantityUnit: base?.attr('unitCode') === undefined ? undefined : { value: base.attr('unitCode')!, at: base.at },
    vat: category(settlement?.one('ApplicableTradeTax')),
    allowances,
    charges,
    period: period(settlement?.one('BillingSpecifiedPeriod')),
  };
}

/** BT-110 and BT-111 are both TaxTotalAmount, told apart by currency; the breakdown goes with BT-110. */
function taxTotals(settlement: XmlNode | undefined, currency?: string): TaxTotal[] {
  const amounts = settlement?.path('SpecifiedTradeSettlementHeaderMonetarySummation')?.all('TaxTotalAmount') ?? [];
  const breakdown = (settlement?.all('ApplicableTradeTax') ?? []).map((t) => ({
    taxable: t.value('BasisAmount'),
    tax: t.value('CalculatedAmount'),
    category: category(t)!,
    at: t.at,
  }));
  const main = amounts.find((a) => a.attr('currencyID') === currency) ?? amounts.find((a) => !a.attr('currencyID'));
  const others = amounts.filter((a) => a !== main);
  const at = settlement?.at ?? '';
  return [
    { amount: text(main), currency, breakdown, at: main?.at ?? at },
    ...others.map((a) => ({ amount: text(a), currency: a.attr('currencyID'), breakdown: [], at: a.at })),
  ];
}

function totals(node: XmlNode | undefined): EInvoice['totals'] {
  if (!node) return undefined;
  return {
    lineNet: node.value('LineTotalAmount'),
    allowances: node.value('AllowanceTotalAmount'),
    charges: node.value('ChargeTotalAmount'),
    taxExclusive: node.value('TaxBasisTotalAmount'),
    taxInclusive: node.value('GrandTotalAmount'),
    paid: node.value('TotalPrepaidAmount'),
    rounding: node.value('RoundingAmount'),
    payable: node.value('DuePayableAmount'),
    at: node.at,
  };
}

const currencyIds = (root: XmlNode): At[] =>
  [...walk(root)].flatMap((n) =>
    n.attr('currencyID') === undefined ? [] : [{ value: n.attr('currencyID')!, at: n.at }],
  );

function parties(
  root: XmlNode,
  agreement: XmlNode | undefined,
): Pick<EInvoice, 'seller' | 'buyer' | 'taxRepresentative'> {
  const representative = agreement?.one('SellerTaxRepresentativeTradeParty');
  return {
    seller: party(agreement?.one('SellerTradeParty'), `${root.at}/SellerTradeParty`),
    buyer: party(agreement?.one('BuyerTradeParty'), `${root.at}/BuyerTradeParty`),
    taxRepresentative: representative && party(representative, representative.at),
  };
}

function paymentMeans(settlement: XmlNode | undefined): EInvoice['paymentMeans'] {
  const mandate = settlement?.value('SpecifiedTradePaymentTerms', 'DirectDebitMandateID');
  return (settlement?.all('SpecifiedTradeSettlementPaymentMeans') ?? []).map((p) => ({
    code: p.value('TypeCode'),
    accounts: p
      .all('PayeePartyCreditorFinancialAccount')
      .map((a) => a.value('IBANID') ?? a.value('ProprietaryID') ?? { value: '', at: a.at }),
    mandate,
    at: p.at,
  }));
}

/** Reads a CrossIndustryInvoice root; undefined for any other root element. */
export function readCii(root: XmlNode): EInvoice | undefined {
  if (root.name !== 'CrossIndustryInvoice') return undefined;
  const context = root.one('ExchangedDocumentContext');
  const header = root.one('ExchangedDocument');
  const trade = root.one('SupplyChainTradeTransaction');
  const agreement = trade?.one('ApplicableHeaderTradeAgreement');
  const delivery = trade?.one('ApplicableHeaderTradeDelivery');
  const settlement = trade?.one('ApplicableHeaderTradeSettlement');
  const terms = settlement?.one('SpecifiedTradePaymentTerms');
  const currency = settlement?.value('InvoiceCurrencyCode');
  const [allowances, charges] = split((settlement?.all('SpecifiedTradeAllowanceCharge') ?? []).map(allowanceCharge));
  return {
    syntax: 'cii',
    kind: 'invoice',
    root: root.at,
    customizationId: context?.value('GuidelineSpecifiedDocumentContextParameter', 'ID'),
    profileId: context?.value('BusinessProcessSpecifiedDocumentContextParameter', 'ID'),
    number: header?.value('ID'),
    issueDate: header?.value('IssueDateTime', 'DateTimeString'),
    dueDate: terms?.value('DueDateDateTime', 'DateTimeString'),
    paymentTerms: terms?.value('Description'),
    typeCode: header?.value('TypeCode'),
    currency,
    taxCurrency: settlement?.value('TaxCurrencyCode'),
    notes: (header?.all('IncludedNote') ?? []).map((n) => n.value('Content') ?? { value: '', at: n.at }),
    buyerReference: agreement?.value('BuyerReference'),
    orderReference: agreement?.value('BuyerOrderReferencedDocument', 'IssuerAssignedID'),
    period: period(settlement?.one('BillingSpecifiedPeriod')),
    precedingInvoices: (settlement?.all('InvoiceReferencedDocument') ?? []).map((r) => ({
      id: r.value('IssuerAssignedID'),
      at: r.at,
    })),
    ...parties(root, agreement),
    deliveryCountry: delivery?.value('ShipToTradeParty', 'PostalTradeAddress', 'CountryID'),
    deliveryDate: delivery?.value('ActualDeliverySupplyChainEvent', 'OccurrenceDateTime', 'DateTimeString'),
    paymentMeans: paymentMeans(settlement),
    allowances,
    charges,
    taxTotals: taxTotals(settlement, currency?.value),
    totals: totals(settlement?.one('SpecifiedTradeSettlementHeaderMonetarySummation')),
    lines: (trade?.all('IncludedSupplyChainTradeLineItem') ?? []).map(line),
    currencyIds: currencyIds(root),
    emptyElements: [],
    amounts: [],
    dates: [],
  };
}
