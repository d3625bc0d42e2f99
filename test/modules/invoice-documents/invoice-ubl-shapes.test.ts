import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createTestApp } from '../../helpers.ts';
import { Dec } from '../../../src/platform/money.ts';
import { makeInvoice, type InvoiceSpec } from './fixtures.ts';
import { assertNoFindings } from './rules/assert-findings.ts';
import { engineMadeInvoice, SHAPES, UNTAXED } from './shapes.ts';

const t = await createTestApp();
// UBL_DUMP_DIR=/tmp/x writes each shape there, for the official validator run by hand (it needs Java).
const dumpDir = process.env.UBL_DUMP_DIR;

export { SHAPES };

function parse(xml: string) {
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (name) => ['cac:InvoiceLine', 'cac:TaxSubtotal'].includes(name),
  });
  return parser.parse(xml).Invoice;
}

async function shapeXml(name: string, spec: InvoiceSpec) {
  const invoice = await makeInvoice(t, t.tenant, spec);
  const res = await t.request('GET', `/invoices/${invoice.id}/document?format=ubl`);
  assert.equal(res.status, 200, `${name}: ${res.text.slice(0, 300)}`);
  if (dumpDir) writeFileSync(`${dumpDir}/${name}.xml`, res.text);
  assertNoFindings(res.text, name);
  return parse(res.text);
}

const sum = (nodes: any[]) => nodes.reduce((total: Dec, node: any) => total.plus(node['#text']), new Dec(0));
const amount = (node: any) => new Dec(node['#text']);

/** BR-08..11: both parties have a PostalAddress with a country; BR-06/07: names. */
function assertParties(doc: any) {
  for (const side of ['cac:AccountingSupplierParty', 'cac:AccountingCustomerParty']) {
    const p = doc[side]['cac:Party'];
    assert.match(p['cac:PostalAddress']['cac:Country']['cbc:IdentificationCode'], /^[A-Z]{2}$/, side);
    assert.ok(p['cac:PartyLegalEntity']['cbc:RegistrationName'], side);
  }
}

/** BR-S/Z/E/O-02 and -05, BR-E-10, BR-O-02/11, BR-48: categories agree with the seller's VAT number. */
function assertCategories(doc: any) {
  const sellerVat = doc['cac:AccountingSupplierParty']['cac:Party']['cac:PartyTaxScheme']?.['cbc:CompanyID'];
  const buyerVat = doc['cac:AccountingCustomerParty']['cac:Party']['cac:PartyTaxScheme']?.['cbc:CompanyID'];
  const subtotals = doc['cac:TaxTotal']['cac:TaxSubtotal'];
  const categories = subtotals.map((s: any) => s['cac:TaxCategory']['cbc:ID']);
  if (categories.includes('O')) {
    assert.deepEqual(categories, ['O'], 'O stands alone (BR-O-11)');
    assert.equal(sellerVat, undefined, 'BR-O-02');
    assert.equal(buyerVat, undefined, 'BR-O-02');
  } else assert.ok(sellerVat, 'S, Z and E need the seller VAT number');
  for (const s of subtotals) {
    const category = s['cac:TaxCategory'];
    if (category['cbc:ID'] === 'O') assert.equal(category['cbc:Percent'], undefined, 'no rate (BR-48)');
    else assert.match(category['cbc:Percent'], /^\d+(\.\d+)?$/);
    if (['E', 'O'].includes(category['cbc:ID'])) {
      assert.ok(category['cbc:TaxExemptionReason'], 'BR-E-10 / BR-O-10');
      assert.equal(s['cbc:TaxAmount']['#text'], '0.00');
    }
  }
  for (const line of doc['cac:InvoiceLine']) {
    const category = line['cac:Item']['cac:ClassifiedTaxCategory'];
    assert.ok(categories.includes(category['cbc:ID']), 'every line category has a breakdown (BR-CO-18)');
    assert.equal(category['cbc:TaxExemptionReason'], undefined, 'UBL-CR-601');
    if (category['cbc:ID'] === 'O') assert.equal(category['cbc:Percent'], undefined, 'BR-O-05');
    assert.ok(!amount(line['cac:Price']['cbc:PriceAmount']).isNegative(), 'BR-27');
  }
}

/** BR-CO-10..16: lines add up to the net, rates to the tax, and the totals to each other. */
function assertTotals(doc: any) {
  const totals = doc['cac:LegalMonetaryTotal'];
  const subtotals = doc['cac:TaxTotal']['cac:TaxSubtotal'];
  const lines = sum(doc['cac:InvoiceLine'].map((l: any) => l['cbc:LineExtensionAmount']));
  const tax = sum(subtotals.map((s: any) => s['cbc:TaxAmount']));
  assert.ok(amount(totals['cbc:LineExtensionAmount']).equals(lines), 'BR-CO-10');
  assert.ok(amount(totals['cbc:TaxExclusiveAmount']).equals(lines), 'BR-CO-13');
  assert.ok(amount(doc['cac:TaxTotal']['cbc:TaxAmount']).equals(tax), 'BR-CO-14');
  assert.ok(amount(totals['cbc:TaxInclusiveAmount']).equals(lines.plus(tax)), 'BR-CO-15');
  const paid = totals['cbc:PrepaidAmount'] ? amount(totals['cbc:PrepaidAmount']) : new Dec(0);
  assert.ok(amount(totals['cbc:PayableAmount']).equals(lines.plus(tax).minus(paid)), 'BR-CO-16');
  assert.ok(sum(subtotals.map((s: any) => s['cbc:TaxableAmount'])).equals(lines), 'BR-CO-18 taxable');
}

for (const [name, spec] of Object.entries(SHAPES))
  test(`UBL shape ${name}: EN 16931 without a Peppol claim, no business-rule findings, parties, categories and totals`, async () => {
    const doc = await shapeXml(name, spec);
    assert.equal(doc['cbc:CustomizationID'], 'urn:cen.eu:en16931:2017');
    assert.equal(doc['cbc:ProfileID'], undefined, 'no Peppol profile claimed (PEPPOL-EN16931-R004)');
    assert.equal(doc['cac:InvoicePeriod']['cbc:Description'], undefined, 'UBL-CR-015');
    assertParties(doc);
    assertCategories(doc);
    assertTotals(doc);
  });

/** Electronic addresses on the invoice's snapshot, each side in another EAS scheme (GLN, BE enterprise no.). */
export const PEPPOL_SNAPSHOT = {
  seller_endpoint_id: '4000001000005',
  seller_endpoint_scheme: '0088',
  client_endpoint_id: '0477472701',
  client_endpoint_scheme: '0208',
};
const withEndpoints = (spec: InvoiceSpec, extra: Record<string, string | null> = {}): InvoiceSpec => ({
  ...spec,
  snapshot: { ...spec.snapshot, ...PEPPOL_SNAPSHOT, ...extra },
});

/** PEPPOL-EN16931-R001/R004/R007: the Peppol ids; R010/R020: both EndpointIDs with a scheme; R003: a buyer reference. */
function assertPeppol(doc: any, buyerReference: string) {
  assert.equal(
    doc['cbc:CustomizationID'],
    'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  );
  assert.equal(doc['cbc:ProfileID'], 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
  const endpoint = (side: string) => doc[side]['cac:Party']['cbc:EndpointID'];
  assert.deepEqual(endpoint('cac:AccountingSupplierParty'), { '#text': '4000001000005', '@_schemeID': '0088' });
  assert.deepEqual(endpoint('cac:AccountingCustomerParty'), { '#text': '0477472701', '@_schemeID': '0208' });
  assert.equal(doc['cbc:BuyerReference'], buyerReference);
}

for (const [name, spec] of Object.entries(SHAPES))
  test(`Peppol shape ${name}: with both electronic addresses the UBL claims Peppol BIS Billing 3.0`, async () => {
    const doc = await shapeXml(`${name}-peppol`, withEndpoints(spec));
    assertPeppol(doc, '1234561');
    assertParties(doc);
    assertCategories(doc);
    assertTotals(doc);
  });

test('Peppol buyer reference: the Leitweg-ID (scheme 0204), else reference_number, else the invoice number', async () => {
  const noReference = await shapeXml('peppol-no-reference', withEndpoints({}, { reference_number: null }));
  assertPeppol(noReference, noReference['cbc:ID']);
  assert.match(noReference['cbc:ID'], /^A-\d+$/);
  const plain = await shapeXml('plain-no-reference', { snapshot: { reference_number: null } });
  assert.equal(plain['cbc:BuyerReference'], undefined, 'a plain EN 16931 document needs none');
  const leitweg = await shapeXml(
    'peppol-leitweg',
    withEndpoints({}, { client_endpoint_id: '04011000-1234512345-06', client_endpoint_scheme: '0204' }),
  );
  assert.equal(leitweg['cbc:BuyerReference'], '04011000-1234512345-06');
  assert.deepEqual(leitweg['cac:AccountingCustomerParty']['cac:Party']['cbc:EndpointID'], {
    '#text': '04011000-1234512345-06',
    '@_schemeID': '0204',
  });
});

test('one electronic address is written but claims no Peppol: Peppol needs both', async () => {
  const doc = await shapeXml('seller-endpoint-only', { snapshot: { ...PEPPOL_SNAPSHOT, client_endpoint_id: null } });
  assert.equal(doc['cbc:CustomizationID'], 'urn:cen.eu:en16931:2017');
  assert.equal(doc['cbc:ProfileID'], undefined);
  assert.equal(doc['cac:AccountingSupplierParty']['cac:Party']['cbc:EndpointID']['@_schemeID'], '0088');
  assert.equal(doc['cac:AccountingCustomerParty']['cac:Party']['cbc:EndpointID'], undefined);
});

test('a buyer is written with its address in parts and its contact as name and e-mail', async () => {
  const doc = await shapeXml('parts', SHAPES['non-ascii']!);
  const buyer = doc['cac:AccountingCustomerParty']['cac:Party'];
  assert.deepEqual(buyer['cac:PostalAddress'], {
    'cbc:StreetName': 'Οδός Αθηνάς 3',
    'cbc:CityName': 'Αθήνα',
    'cbc:PostalZone': '10551',
    'cac:Country': { 'cbc:IdentificationCode': 'GR' },
  });
  assert.deepEqual(buyer['cac:Contact'], { 'cbc:Name': 'Zoë Ångström', 'cbc:ElectronicMail': 'zoe@buyer.example' });
  assert.equal(buyer['cac:PartyName']['cbc:Name'], 'Ελληνική Εταιρεία 株式会社');
  assert.equal(doc['cac:InvoiceLine'][0]['cac:Item']['cbc:Name'], 'Перевод документов «срочно»');
  const seller = doc['cac:AccountingSupplierParty']['cac:Party'];
  assert.equal(seller['cac:PostalAddress']['cbc:StreetName'], 'ulica Żółta 5, Łódź');
  assert.equal(seller['cac:Contact']['cbc:ElectronicMail'], 'billing@seller.example');
});

test('a seller without a VAT number bills its untaxed rows as not subject to VAT (O), naming no VAT number', async () => {
  const doc = await shapeXml('o', SHAPES['seller-without-vat']!);
  const [subtotal] = doc['cac:TaxTotal']['cac:TaxSubtotal'];
  assert.equal(subtotal['cac:TaxCategory']['cbc:ID'], 'O');
  assert.equal(subtotal['cac:TaxCategory']['cbc:TaxExemptionReason'], 'Not subject to VAT');
  assert.equal(
    doc['cac:AccountingSupplierParty']['cac:Party']['cac:PostalAddress']['cac:Country']['cbc:IdentificationCode'],
    'EE',
    'from the IBAN',
  );
});

async function refused(spec: InvoiceSpec) {
  const invoice = await makeInvoice(t, t.tenant, spec);
  const res = await t.request('GET', `/invoices/${invoice.id}/document?format=ubl`);
  assert.equal(res.status, 422);
  assert.equal(res.body.error.code, 'EINVOICE_DATA_MISSING');
  const pdf = await t.request('GET', `/invoices/${invoice.id}/document?format=pdf`);
  assert.equal(pdf.status, 200, 'the PDF needs none of it');
  return res.body.error.details.missing;
}

test('UBL is refused with 422 EINVOICE_DATA_MISSING naming the fields the records lack', async () => {
  assert.deepEqual(await refused({ snapshot: { seller_vat_code: null } }), ['invoice_seller.vat_number']);
  assert.deepEqual(await refused({ snapshot: { seller_name: null } }), ['invoice.seller_id']);
  assert.deepEqual(await refused({ rows: [] }), ['invoice.rows']);
  assert.deepEqual(await refused({ snapshot: { seller_vat_code: null, seller_iban: null }, rows: UNTAXED }), [
    'invoice_seller.vat_number or iban_1',
  ]);
  assert.deepEqual(await refused({ snapshot: { client_vat_code: null }, client: { address_country_code: null } }), [
    'client.address_country_code',
  ]);
});

test('UBL shape engine-made: a draft the billing engine made, with the default seller, passes the same checks', async () => {
  const id = await engineMadeInvoice(t);
  const res = await t.request('GET', `/invoices/${id}/document?format=ubl`);
  assert.equal(res.status, 200, res.text);
  if (dumpDir) writeFileSync(`${dumpDir}/engine-made.xml`, res.text);
  assertNoFindings(res.text, 'engine-made');
  const doc = parse(res.text);
  assertParties(doc);
  assertCategories(doc);
  assertTotals(doc);
  assert.equal(doc['cac:AccountingCustomerParty']['cac:Party']['cac:PostalAddress']['cbc:CityName'], 'Tartu');
});
