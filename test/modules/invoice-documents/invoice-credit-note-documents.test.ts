import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { createTestApp } from '../../helpers.ts';
import { invoiceFixtures } from '../invoices/support.ts';
import { download } from './fixtures.ts';
import { assertNoFindings } from './rules/assert-findings.ts';

const t = await createTestApp();
const f = invoiceFixtures(t);
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });
// UBL_DUMP_DIR=/tmp/x writes the documents there, for the official validators run by hand (they need Java).
const dumpDir = process.env.UBL_DUMP_DIR;

const clientId = await f.client({
  address_country_code: 'EE',
  address_street: 'Buyer street 1',
  address_city: 'Tallinn',
  address_zip: '10111',
});
const vat = await f.tax('VAT 22', '0.22');
const sellerId = await f.seller();
await f.billingSettings({ invoice_number_format: 'INV-{seq}' });

/** A finalized invoice of two rows (one taxed, one not), annulled: answers the invoice and its credit note. */
async function creditedPair() {
  const draft = await f.invoice({
    client_id: clientId,
    seller_id: sellerId,
    invoice_date: '2026-02-10',
    rows: [
      {
        description: 'Advice',
        quantity: 2,
        unit: 'h',
        net_price: 100,
        tax_id: vat,
        period_start: '2026-01-01',
        period_end: '2026-01-31',
      },
      { description: 'Book', quantity: 1, net_price: 35.5 },
    ],
  });
  const invoice = await f.finalize(draft.id);
  const etag = (await t.request('GET', `/invoices/${invoice.id}`)).headers.get('etag')!;
  const annulled = await t.request('PATCH', `/invoices/${invoice.id}`, {
    body: { status: 'annulled' },
    headers: { 'if-match': etag },
  });
  assert.equal(annulled.status, 200, annulled.text);
  const notes = await t.request('GET', '/invoices?type=credit_note&limit=100');
  const note = notes.body.data.find((n: any) => n.credited_invoice_id === invoice.id);
  return { invoice, note };
}

async function documentOf(id: number, format: string) {
  const res = await download(t, `/invoices/${id}/document?format=${format}`);
  assert.equal(res.status, 200, `${format}: ${Buffer.from(res.bytes).toString()}`);
  const xml = Buffer.from(res.bytes).toString('utf8');
  // Our EN 16931 rule checker (decision 0062) finds nothing on any of them.
  assertNoFindings(xml, `${format} of invoice ${id}`);
  if (dumpDir) writeFileSync(`${dumpDir}/credit-note.${format}.xml`, xml);
  return parser.parse(xml);
}

test('a credit note is a UBL CreditNote: type 381, BG-3 naming the invoice, CreditNoteLine with BG-26, no DueDate, no finding', async () => {
  const { invoice, note } = await creditedPair();
  const doc = await documentOf(note.id, 'ubl');
  const cn = doc.CreditNote;
  assert.ok(cn, Object.keys(doc).join());
  assert.equal(cn['@xmlns'], 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2');
  assert.equal(cn['cbc:CreditNoteTypeCode'], '381');
  assert.equal(cn['cbc:ID'], note.invoice_number);
  assert.equal(cn['cbc:DueDate'], undefined, 'UBL 2.1 CreditNote has no DueDate');
  assert.ok(cn['cac:PaymentTerms']['cbc:Note'].includes(invoice.invoice_number), 'BR-CO-25: terms say when');
  const ref = cn['cac:BillingReference']['cac:InvoiceDocumentReference'];
  assert.deepEqual([ref['cbc:ID'], ref['cbc:IssueDate']], [invoice.invoice_number, '2026-02-10']);
  const lines = cn['cac:CreditNoteLine'];
  assert.equal(lines.length, 2);
  assert.equal(cn['cac:InvoiceLine'], undefined);
  assert.deepEqual(
    lines.map((l: any) => [l['cbc:CreditedQuantity']['#text'], l['cbc:CreditedQuantity']['@unitCode']]),
    [
      ['2', 'HUR'],
      ['1', 'C62'],
    ],
  );
  // Positive amounts, as UBL wants a credit note's: the totals are the invoice's.
  // BG-26 on the line that has a service period, none on the other.
  assert.deepEqual(
    lines.map((l: any) => l['cac:InvoicePeriod']),
    [{ 'cbc:StartDate': '2026-01-01', 'cbc:EndDate': '2026-01-31' }, undefined],
  );
  const total = cn['cac:LegalMonetaryTotal'];
  assert.deepEqual(
    [total['cbc:TaxExclusiveAmount']['#text'], total['cbc:TaxInclusiveAmount']['#text']],
    ['235.50', '279.50'],
  );
});

test('the invoice it credits stays a UBL Invoice (380) without a BillingReference; the CII of a credit note is 381 with BG-3', async () => {
  const { invoice, note } = await creditedPair();
  const inv = (await documentOf(invoice.id, 'ubl')).Invoice;
  assert.equal(inv['cbc:InvoiceTypeCode'], '380');
  assert.equal(inv['cac:BillingReference'], undefined);
  assert.ok(inv['cbc:DueDate']);

  const cii = (await documentOf(note.id, 'cii'))['rsm:CrossIndustryInvoice'];
  assert.equal(cii['rsm:ExchangedDocument']['ram:TypeCode'], '381');
  const settlement = cii['rsm:SupplyChainTradeTransaction']['ram:ApplicableHeaderTradeSettlement'];
  const referenced = settlement['ram:InvoiceReferencedDocument'];
  assert.equal(referenced['ram:IssuerAssignedID'], invoice.invoice_number);
  assert.equal(referenced['ram:FormattedIssueDateTime']['qdt:DateTimeString']['#text'], '20260210');
  const [first] = cii['rsm:SupplyChainTradeTransaction']['ram:IncludedSupplyChainTradeLineItem'];
  const period = first['ram:SpecifiedLineTradeSettlement']['ram:BillingSpecifiedPeriod'];
  assert.deepEqual(
    [
      period['ram:StartDateTime']['udt:DateTimeString']['#text'],
      period['ram:EndDateTime']['udt:DateTimeString']['#text'],
    ],
    ['20260101', '20260131'],
  );
  const original = (await documentOf(invoice.id, 'cii'))['rsm:CrossIndustryInvoice'];
  assert.equal(original['rsm:ExchangedDocument']['ram:TypeCode'], '380');
  assert.equal(
    original['rsm:SupplyChainTradeTransaction']['ram:ApplicableHeaderTradeSettlement']['ram:InvoiceReferencedDocument'],
    undefined,
  );
});
