import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createTestApp } from '../../helpers.ts';
import { Dec } from '../../../src/platform/money.ts';
import { makeInvoice } from './fixtures.ts';

const t = await createTestApp();

function ubl(xml: string) {
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (name) => ['cac:InvoiceLine', 'cac:TaxSubtotal'].includes(name),
  });
  return parser.parse(xml).Invoice;
}

const amountOf = (node: any) => {
  assert.match(node['#text'], /^-?\d+\.\d{2}$/, `an amount with two places: ${node['#text']}`);
  assert.equal(node['@_currencyID'], 'EUR');
  return new Dec(node['#text']);
};

test('the UBL document is EN 16931 UBL 2.1 whose figures add up', async () => {
  const invoice = await makeInvoice(t, t.tenant, { paid_sum: '100', invoice_number: 'INV-7' });
  const res = await t.request('GET', `/invoices/${invoice.id}/document?format=ubl`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/xml; charset=utf-8');
  assert.equal(res.headers.get('content-disposition'), 'attachment; filename="invoice-INV-7.xml"');
  assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(res.text)));
  const doc = ubl(res.text);
  assert.equal(doc['@_xmlns'], 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
  assert.equal(doc['cbc:CustomizationID'], 'urn:cen.eu:en16931:2017');
  assert.equal(doc['cbc:ProfileID'], undefined, 'no Peppol claim without electronic addresses');
  assert.equal(doc['cbc:ID'], 'INV-7');
  assert.equal(doc['cbc:IssueDate'], '2026-11-20');
  assert.equal(doc['cbc:DueDate'], '2026-12-04');
  assert.equal(doc['cbc:InvoiceTypeCode'], '380');
  assert.equal(doc['cbc:DocumentCurrencyCode'], 'EUR');
  assert.equal(doc['cbc:BuyerReference'], '1234561');
  const seller = doc['cac:AccountingSupplierParty']['cac:Party'];
  assert.equal(seller['cac:PartyLegalEntity']['cbc:RegistrationName'], 'Seller Ltd');
  assert.equal(seller['cac:PartyLegalEntity']['cbc:CompanyID'], '87654321');
  assert.equal(seller['cac:PartyTaxScheme']['cbc:CompanyID'], 'EE100000001');
  assert.equal(seller['cac:PostalAddress']['cac:Country']['cbc:IdentificationCode'], 'EE');
  assert.equal(seller['cac:Contact']['cbc:ElectronicMail'], 'billing@seller.example');
  const buyer = doc['cac:AccountingCustomerParty']['cac:Party'];
  assert.equal(buyer['cac:PartyLegalEntity']['cbc:RegistrationName'], 'Buyer Corp');
  assert.equal(buyer['cac:PartyTaxScheme']['cbc:CompanyID'], 'EE101234567');
  const means = doc['cac:PaymentMeans'];
  assert.equal(means['cbc:PaymentMeansCode'], '30');
  assert.equal(means['cbc:PaymentID'], '1234561');
  assert.equal(means['cac:PayeeFinancialAccount']['cbc:ID'], 'EE382200221020145685');

  const lines = doc['cac:InvoiceLine'];
  assert.equal(lines.length, 4);
  assert.equal(lines[2]['cac:Item']['cbc:Name'], 'Travel <& "expenses">', 'escaped and read back');
  assert.equal(lines[0]['cbc:InvoicedQuantity']['@_unitCode'], 'HUR');
  assert.equal(lines[1]['cac:AllowanceCharge']['cbc:Amount']['#text'], '14.97');
  const lineSum = lines.reduce(
    (sum: Dec, line: any) => sum.plus(amountOf(line['cbc:LineExtensionAmount'])),
    new Dec(0),
  );

  const taxTotal = doc['cac:TaxTotal'];
  const subtotals = taxTotal['cac:TaxSubtotal'];
  assert.deepEqual(
    subtotals.map((s: any) => [
      s['cac:TaxCategory']['cbc:ID'],
      s['cac:TaxCategory']['cbc:Percent'],
      s['cbc:TaxableAmount']['#text'],
      s['cbc:TaxAmount']['#text'],
    ]),
    [
      ['S', '22', '989.73', '217.74'],
      ['S', '9', '30.51', '2.75'],
      ['E', '0', '120.00', '0.00'],
    ],
  );
  const taxSum = subtotals.reduce((sum: Dec, s: any) => sum.plus(amountOf(s['cbc:TaxAmount'])), new Dec(0));
  const taxable = subtotals.reduce((sum: Dec, s: any) => sum.plus(amountOf(s['cbc:TaxableAmount'])), new Dec(0));
  const totals = doc['cac:LegalMonetaryTotal'];
  assert.ok(amountOf(totals['cbc:LineExtensionAmount']).equals(lineSum), 'lines add up to LineExtensionAmount');
  assert.ok(amountOf(totals['cbc:TaxExclusiveAmount']).equals(taxable), 'rates add up to the net');
  assert.ok(amountOf(taxTotal['cbc:TaxAmount']).equals(taxSum), 'rates add up to the tax');
  assert.ok(amountOf(totals['cbc:TaxInclusiveAmount']).equals(lineSum.plus(taxSum)));
  assert.ok(amountOf(totals['cbc:PrepaidAmount']).equals(100));
  assert.ok(amountOf(totals['cbc:PayableAmount']).equals(lineSum.plus(taxSum).minus(100)));
  assert.equal(totals['cbc:TaxInclusiveAmount']['#text'], '1360.73');
  assert.equal(totals['cbc:PayableAmount']['#text'], '1260.73');
});

test('a bad format or an unknown query parameter is refused', async () => {
  const invoice = await makeInvoice(t, t.tenant);
  const format = await t.request('GET', `/invoices/${invoice.id}/document?format=docx`);
  assert.equal(format.status, 400);
  assert.equal(format.body.error.code, 'VALIDATION_ERROR');
  const unknown = await t.request('GET', `/invoices/${invoice.id}/document?colour=red`);
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test('a draft UBL is numbered DRAFT-<id>; a 0 % tax is category Z and a row without tax E with its reason', async () => {
  const invoice = await makeInvoice(t, t.tenant, {
    status: 'draft',
    seller_name: 'Smith & Sons <Ltd>',
    rows: [
      { description: 'Export goods', quantity: '1.5', unit: 'kg', net_price: '10', tax: { name: 'Zero', rate: '0' } },
      { description: 'Exempt course', quantity: '1', net_price: '99.99' },
    ],
  });
  const res = await t.request('GET', `/invoices/${invoice.id}/document?format=ubl`);
  assert.equal(res.status, 200);
  assert.ok(res.text.includes('Smith &amp; Sons &lt;Ltd&gt;'), 'escaped in the XML text');
  const doc = ubl(res.text);
  assert.equal(doc['cbc:ID'], `DRAFT-${invoice.id}`);
  assert.equal(doc['cac:AccountingSupplierParty']['cac:Party']['cac:PartyName']['cbc:Name'], 'Smith & Sons <Ltd>');
  const subtotals = doc['cac:TaxTotal']['cac:TaxSubtotal'];
  const byCategory = (id: string) => subtotals.find((s: any) => s['cac:TaxCategory']['cbc:ID'] === id);
  const [zero, exempt] = [byCategory('Z'), byCategory('E')];
  assert.equal(subtotals.length, 2);
  assert.equal(zero['cac:TaxCategory']['cbc:Percent'], '0');
  assert.equal(zero['cbc:TaxableAmount']['#text'], '15.00');
  assert.equal(exempt['cac:TaxCategory']['cbc:ID'], 'E');
  assert.equal(exempt['cac:TaxCategory']['cbc:TaxExemptionReason'], 'Exempt from VAT');
  assert.equal(doc['cac:InvoiceLine'][0]['cbc:InvoicedQuantity']['#text'], '1.5');
  assert.equal(doc['cac:InvoiceLine'][0]['cbc:InvoicedQuantity']['@_unitCode'], 'KGM');
  assert.equal(doc['cac:InvoiceLine'][1]['cac:Price']['cbc:PriceAmount']['#text'], '99.99');
  assert.equal(doc['cac:LegalMonetaryTotal']['cbc:PayableAmount']['#text'], '114.99');
});
