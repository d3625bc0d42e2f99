import { Dec } from '../../platform/money.ts';
import type { InvoiceHeader } from './invoice-documents.repository.ts';
import type { DocumentLine, InvoiceDocument, TaxCategory, TaxGroup } from './invoice-documents.model.ts';
import { assertUblComplete, buyerOf, sellerOf, type UblParty } from './invoice-documents.ubl-parties.ts';
import { buyerReference, CUSTOMIZATION } from './invoice-documents.ubl-profile.ts';
import { el, escapeXml, EXEMPTION, group, quantityAndPrice, unitCode, unitPrice } from './invoice-documents.ubl.ts';

/**
 * The invoice as an EN 16931 UN/CEFACT Cross Industry Invoice (D16B; the syntax Factur-X and ZUGFeRD carry):
 * the same figures, parties and refusals as the UBL (decision 0063), in CII's element order.
 */
const ROOT_ATTRIBUTES =
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" ' +
  'xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" ' +
  'xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100" ' +
  'xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"';

/** A date as CII writes it: format 102, YYYYMMDD. */
const date = (tag: string, value: string | null) =>
  value
    ? `<${tag}><udt:DateTimeString format="102">${value.slice(0, 10).replace(/-/g, '')}</udt:DateTimeString></${tag}>`
    : '';

function party(tag: string, p: UblParty, showVat: boolean): string {
  return group(
    tag,
    el('ram:Name', p.name),
    group('ram:SpecifiedLegalOrganization', el('ram:ID', p.reg)),
    group(
      'ram:DefinedTradeContact',
      el('ram:PersonName', p.contactName),
      group('ram:TelephoneUniversalCommunication', el('ram:CompleteNumber', p.phone)),
      group('ram:EmailURIUniversalCommunication', el('ram:URIID', p.email)),
    ),
    group(
      'ram:PostalTradeAddress',
      el('ram:PostcodeCode', p.zip),
      el('ram:LineOne', p.street),
      el('ram:CityName', p.city),
      el('ram:CountryID', p.country),
      el('ram:CountrySubDivisionName', p.state),
    ),
    p.endpoint
      ? group(
          'ram:URIUniversalCommunication',
          el('ram:URIID', p.endpoint.id, ` schemeID="${escapeXml(p.endpoint.scheme)}"`),
        )
      : '',
    showVat && p.vat ? group('ram:SpecifiedTaxRegistration', el('ram:ID', p.vat, ' schemeID="VA"')) : '',
  );
}

/** A VAT category: on a line without reason (BR-E-10 wants it in the breakdown), O without a rate (BR-O-05). */
function tradeTax(category: TaxCategory, percent: string, sums?: { tax: string; taxable: string }): string {
  return group(
    'ram:ApplicableTradeTax',
    sums ? el('ram:CalculatedAmount', sums.tax) : '',
    el('ram:TypeCode', 'VAT'),
    sums ? el('ram:ExemptionReason', EXEMPTION[category]) : '',
    sums ? el('ram:BasisAmount', sums.taxable) : '',
    el('ram:CategoryCode', category),
    category === 'O' ? '' : el('ram:RateApplicablePercent', percent),
  );
}

function lineItem(line: DocumentLine, index: number): string {
  const [quantity, price] = quantityAndPrice(line.row);
  const discount = new Dec(line.discount).isZero()
    ? ''
    : group(
        'ram:SpecifiedTradeAllowanceCharge',
        group('ram:ChargeIndicator', el('udt:Indicator', 'false')),
        el('ram:ActualAmount', line.discount),
        el('ram:Reason', 'Discount'),
      );
  return group(
    'ram:IncludedSupplyChainTradeLineItem',
    group('ram:AssociatedDocumentLineDocument', el('ram:LineID', String(index + 1))),
    group('ram:SpecifiedTradeProduct', el('ram:Name', line.row.description || '-')),
    group(
      'ram:SpecifiedLineTradeAgreement',
      group('ram:NetPriceProductTradePrice', el('ram:ChargeAmount', unitPrice(price.toFixed()))),
    ),
    group(
      'ram:SpecifiedLineTradeDelivery',
      el('ram:BilledQuantity', quantity.toFixed(), ` unitCode="${unitCode(line.row.unit)}"`),
    ),
    group(
      'ram:SpecifiedLineTradeSettlement',
      tradeTax(line.category, line.percent),
      // BG-26, the row's service period.
      line.row.period_start
        ? `<ram:BillingSpecifiedPeriod>${date('ram:StartDateTime', line.row.period_start)}${date('ram:EndDateTime', line.row.period_end)}</ram:BillingSpecifiedPeriod>`
        : '',
      discount,
      group('ram:SpecifiedTradeSettlementLineMonetarySummation', el('ram:LineTotalAmount', line.net)),
    ),
  );
}

function agreement(model: InvoiceDocument): string {
  const i = model.invoice;
  const showVat = !model.lines.some((l) => l.category === 'O');
  return group(
    'ram:ApplicableHeaderTradeAgreement',
    el('ram:BuyerReference', buyerReference(i, 'en16931')),
    party('ram:SellerTradeParty', sellerOf(i), showVat),
    party('ram:BuyerTradeParty', buyerOf(i), showVat),
    i.contract_id === null
      ? ''
      : group('ram:ContractReferencedDocument', el('ram:IssuerAssignedID', String(i.contract_id))),
  );
}

function paymentMeans(i: InvoiceHeader): string {
  if (!i.seller_iban && !i.reference_number) return '';
  return group(
    'ram:SpecifiedTradeSettlementPaymentMeans',
    el('ram:TypeCode', '30'),
    group(
      'ram:PayeePartyCreditorFinancialAccount',
      el('ram:IBANID', i.seller_iban?.replace(/\s+/g, '')),
      el('ram:AccountName', i.seller_name),
    ),
  );
}

function settlement(model: InvoiceDocument): string {
  const i = model.invoice;
  const t = model.totals;
  const period = date('ram:StartDateTime', i.period_from) + date('ram:EndDateTime', i.period_until);
  return group(
    'ram:ApplicableHeaderTradeSettlement',
    el('ram:PaymentReference', i.reference_number),
    el('ram:InvoiceCurrencyCode', i.currency),
    paymentMeans(i),
    ...model.taxes.map((g: TaxGroup) => tradeTax(g.category, g.percent, g)),
    period ? `<ram:BillingSpecifiedPeriod>${period}</ram:BillingSpecifiedPeriod>` : '',
    `<ram:SpecifiedTradePaymentTerms>${date('ram:DueDateDateTime', i.due_date)}</ram:SpecifiedTradePaymentTerms>`,
    group(
      'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
      el('ram:LineTotalAmount', t.net),
      el('ram:TaxBasisTotalAmount', t.net),
      el('ram:TaxTotalAmount', t.tax, ` currencyID="${escapeXml(i.currency)}"`),
      el('ram:GrandTotalAmount', t.total),
      el('ram:TotalPrepaidAmount', t.paid),
      el('ram:DuePayableAmount', t.due),
    ),
    // BG-3 on a credit note: the invoice it credits (decision 0064).
    group(
      'ram:InvoiceReferencedDocument',
      el('ram:IssuerAssignedID', i.credited_number),
      i.credited_date ? date('ram:FormattedIssueDateTime', i.credited_date).replace(/udt:/g, 'qdt:') : '',
    ),
  );
}

/** The CII document, or 422 EINVOICE_DATA_MISSING when the records lack what EN 16931 requires. */
export function renderCii(model: InvoiceDocument): string {
  assertUblComplete(model);
  const i = model.invoice;
  const body = [
    group(
      'rsm:ExchangedDocumentContext',
      group('ram:GuidelineSpecifiedDocumentContextParameter', el('ram:ID', CUSTOMIZATION.en16931)),
    ),
    group(
      'rsm:ExchangedDocument',
      el('ram:ID', i.invoice_number ?? model.label.toUpperCase()),
      el('ram:TypeCode', i.type === 'credit_note' ? '381' : '380'),
      date('ram:IssueDateTime', i.invoice_date),
      group('ram:IncludedNote', el('ram:Content', i.comments)),
    ),
    group(
      'rsm:SupplyChainTradeTransaction',
      ...model.lines.map(lineItem),
      agreement(model),
      '<ram:ApplicableHeaderTradeDelivery/>',
      settlement(model),
    ),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice ${ROOT_ATTRIBUTES}>${body.join('')}</rsm:CrossIndustryInvoice>\n`;
}
