import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createTestApp } from '../../helpers.ts';
import { Dec } from '../../../src/platform/money.ts';
import { getDocumentProxy } from 'unpdf';
import { download, makeInvoice, pdfText, type InvoiceSpec } from './fixtures.ts';
import { engineMadeInvoice, SHAPES } from './shapes.ts';

const t = await createTestApp();
const dumpDir = process.env.UBL_DUMP_DIR;

function parse(xml: string) {
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (name) => ['ram:IncludedSupplyChainTradeLineItem', 'ram:ApplicableTradeTax'].includes(name),
  });
  return parser.parse(xml)['rsm:CrossIndustryInvoice'];
}

async function ciiOf(name: string, spec: InvoiceSpec) {
  const invoice = await makeInvoice(t, t.tenant, spec);
  const res = await t.request('GET', `/invoices/${invoice.id}/document?format=cii`);
  assert.equal(res.status, 200, `${name}: ${res.text.slice(0, 300)}`);
  if (dumpDir) writeFileSync(`${dumpDir}/${name}.cii.xml`, res.text);
  return { doc: parse(res.text), res, invoice };
}

const text = (node: any) => (typeof node === 'object' ? node['#text'] : node);
const sum = (values: string[]) => values.reduce((total, v) => total.plus(v), new Dec(0));

/** BR-08..11 (addresses with countries), BR-CO-10..16 (totals), BR-S/E/O rules (categories) on the CII. */
function assertRules(doc: any) {
  assert.equal(
    doc['rsm:ExchangedDocumentContext']['ram:GuidelineSpecifiedDocumentContextParameter']['ram:ID'],
    'urn:cen.eu:en16931:2017',
  );
  const tx = doc['rsm:SupplyChainTradeTransaction'];
  const agreement = tx['ram:ApplicableHeaderTradeAgreement'];
  for (const side of ['ram:SellerTradeParty', 'ram:BuyerTradeParty'])
    assert.match(agreement[side]['ram:PostalTradeAddress']['ram:CountryID'], /^[A-Z]{2}$/, side);
  const settlement = tx['ram:ApplicableHeaderTradeSettlement'];
  const totals = settlement['ram:SpecifiedTradeSettlementHeaderMonetarySummation'];
  const lines = tx['ram:IncludedSupplyChainTradeLineItem'].map(
    (l: any) =>
      l['ram:SpecifiedLineTradeSettlement']['ram:SpecifiedTradeSettlementLineMonetarySummation']['ram:LineTotalAmount'],
  );
  const taxes = settlement['ram:ApplicableTradeTax'];
  const net = sum(lines);
  const tax = sum(taxes.map((g: any) => g['ram:CalculatedAmount']));
  assert.ok(net.equals(totals['ram:LineTotalAmount']), 'BR-CO-10');
  assert.ok(sum(taxes.map((g: any) => g['ram:BasisAmount'])).equals(net), 'BR-CO-18');
  assert.ok(tax.equals(text(totals['ram:TaxTotalAmount'])), 'BR-CO-14');
  assert.equal(totals['ram:TaxTotalAmount']['@_currencyID'], settlement['ram:InvoiceCurrencyCode']);
  assert.ok(net.plus(tax).equals(totals['ram:GrandTotalAmount']), 'BR-CO-15');
  assert.ok(net.plus(tax).minus(totals['ram:TotalPrepaidAmount']).equals(totals['ram:DuePayableAmount']), 'BR-CO-16');
  const categories = taxes.map((g: any) => g['ram:CategoryCode']);
  const sellerVat = agreement['ram:SellerTradeParty']['ram:SpecifiedTaxRegistration'];
  if (categories.includes('O')) assert.equal(sellerVat, undefined, 'BR-O-02');
  else assert.equal(sellerVat['ram:ID']['@_schemeID'], 'VA');
  for (const g of taxes) {
    if (['E', 'O'].includes(g['ram:CategoryCode'])) assert.ok(g['ram:ExemptionReason'], 'BR-E-10 / BR-O-10');
    if (g['ram:CategoryCode'] === 'O') assert.equal(g['ram:RateApplicablePercent'], undefined, 'BR-O-05');
  }
}

for (const [name, spec] of Object.entries(SHAPES))
  test(`CII shape ${name}: EN 16931 CII whose parties, categories and totals are as the rules need`, async () => {
    assertRules((await ciiOf(name, spec)).doc);
  });

test('CII shape engine-made: a draft the billing engine made passes the same checks', async () => {
  const res = await t.request('GET', `/invoices/${await engineMadeInvoice(t)}/document?format=cii`);
  assert.equal(res.status, 200, res.text);
  if (dumpDir) writeFileSync(`${dumpDir}/engine-made.cii.xml`, res.text);
  assertRules(parse(res.text));
});

test('format=cii answers XML named -cii.xml; lines, dates, payment and electronic addresses as CII writes them', async () => {
  const spec: InvoiceSpec = {
    invoice_number: 'INV-9',
    snapshot: { seller_endpoint_id: '4000001000005', seller_endpoint_scheme: '0088', seller_phone: '+372 5550100' },
  };
  const { doc, res } = await ciiOf('details', spec);
  assert.equal(res.headers.get('content-type'), 'application/xml; charset=utf-8');
  assert.equal(res.headers.get('content-disposition'), 'attachment; filename="invoice-INV-9-cii.xml"');
  const header = doc['rsm:ExchangedDocument'];
  assert.equal(header['ram:ID'], 'INV-9');
  assert.equal(header['ram:TypeCode'], '380');
  assert.deepEqual(header['ram:IssueDateTime']['udt:DateTimeString'], { '#text': '20261120', '@_format': '102' });
  const tx = doc['rsm:SupplyChainTradeTransaction'];
  const [first, second] = tx['ram:IncludedSupplyChainTradeLineItem'];
  assert.deepEqual(first['ram:SpecifiedLineTradeDelivery']['ram:BilledQuantity'], {
    '#text': '10',
    '@_unitCode': 'HUR',
  });
  assert.equal(first['ram:SpecifiedLineTradeAgreement']['ram:NetPriceProductTradePrice']['ram:ChargeAmount'], '85.50');
  assert.equal(
    second['ram:SpecifiedLineTradeSettlement']['ram:SpecifiedTradeAllowanceCharge']['ram:ActualAmount'],
    '14.97',
  );
  const seller = tx['ram:ApplicableHeaderTradeAgreement']['ram:SellerTradeParty'];
  assert.deepEqual(seller['ram:URIUniversalCommunication']['ram:URIID'], {
    '#text': '4000001000005',
    '@_schemeID': '0088',
  });
  assert.equal(
    seller['ram:DefinedTradeContact']['ram:TelephoneUniversalCommunication']['ram:CompleteNumber'],
    '+372 5550100',
  );
  assert.equal(tx['ram:ApplicableHeaderTradeAgreement']['ram:BuyerReference'], '1234561');
  const settlement = tx['ram:ApplicableHeaderTradeSettlement'];
  assert.equal(settlement['ram:PaymentReference'], '1234561');
  const means = settlement['ram:SpecifiedTradeSettlementPaymentMeans'];
  assert.equal(means['ram:PayeePartyCreditorFinancialAccount']['ram:IBANID'], 'EE382200221020145685');
  assert.equal(
    settlement['ram:SpecifiedTradePaymentTerms']['ram:DueDateDateTime']['udt:DateTimeString']['#text'],
    '20261204',
  );
});

test('format=cii is refused like the UBL: 422 EINVOICE_DATA_MISSING naming the fields', async () => {
  const invoice = await makeInvoice(t, t.tenant, { snapshot: { seller_vat_code: null } });
  const res = await t.request('GET', `/invoices/${invoice.id}/document?format=cii`);
  assert.equal(res.status, 422);
  assert.equal(res.body.error.code, 'EINVOICE_DATA_MISSING');
  assert.deepEqual(res.body.error.details.missing, ['invoice_seller.vat_number']);
});

/** The file a PDF carries under that name, via pdf.js (unpdf). */
async function attachmentOf(bytes: Uint8Array, name: string) {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const attachments = (await pdf.getAttachments()) as Record<string, { filename: string; content: Uint8Array }>;
  return Object.values(attachments ?? {}).find((a) => a.filename === name);
}

test('format=facturx: a PDF/A-3 carrying the same CII as factur-x.xml (Alternative), declared in the XMP', async () => {
  const invoice = await makeInvoice(t, t.tenant, { invoice_number: 'FX-1', client_name: 'Łódź Αθήνα 株式会社' });
  const res = await download(t, `/invoices/${invoice.id}/document?format=facturx`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/pdf');
  assert.equal(res.headers.get('content-disposition'), 'attachment; filename="invoice-FX-1-facturx.pdf"');
  if (dumpDir) writeFileSync(`${dumpDir}/facturx.pdf`, res.bytes);
  const raw = Buffer.from(res.bytes).toString('latin1');
  assert.match(raw, /<pdfaid:part>3<\/pdfaid:part>/);
  assert.match(raw, /\/AFRelationship \/Alternative/);
  for (const fx of [
    'DocumentType>INVOICE',
    'DocumentFileName>factur-x.xml',
    'Version>1.0',
    'ConformanceLevel>EN 16931',
  ])
    assert.ok(raw.includes(`<fx:${fx}</fx:`), fx);
  assert.ok(raw.includes('<pdfaSchema:prefix>fx</pdfaSchema:prefix>'), 'the extension schema PDF/A requires');
  const file = await attachmentOf(res.bytes, 'factur-x.xml');
  assert.ok(file, 'factur-x.xml attached');
  const cii = await t.request('GET', `/invoices/${invoice.id}/document?format=cii`);
  assert.equal(Buffer.from(file.content).toString('utf8'), cii.text, 'the same CII as format=cii');
  assertRules(parse(cii.text));
  assert.ok((await pdfText(res.bytes)).includes('Łódź Αθήνα 株式会社'), 'the PDF is the invoice, every script');
});

test('format=facturx is refused like the CII: 422 EINVOICE_DATA_MISSING naming the fields', async () => {
  const invoice = await makeInvoice(t, t.tenant, {
    snapshot: { client_vat_code: null },
    client: { address_country_code: null },
  });
  const res = await t.request('GET', `/invoices/${invoice.id}/document?format=facturx`);
  assert.equal(res.status, 422);
  assert.equal(res.body.error.code, 'EINVOICE_DATA_MISSING');
  assert.deepEqual(res.body.error.details.missing, ['client.address_country_code']);
});
