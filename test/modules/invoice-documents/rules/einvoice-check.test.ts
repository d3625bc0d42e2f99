import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createTestApp } from '../../../helpers.ts';
import { makeInvoice } from '../fixtures.ts';
import { checkEInvoice } from '../../../../src/modules/invoice-documents/index.ts';
import { assertNoFindings, ruleIds } from './assert-findings.ts';

// Each rule group proven to fire: a good document made through the API, broken by hand in one place, and the rule
// ids the checker reports. The same broken documents were checked with the official validators (decision 0062);
// EINVOICE_DUMP_DIR=/tmp/x writes them for that.
const t = await createTestApp();
const dumpDir = process.env.EINVOICE_DUMP_DIR;

const invoice = await makeInvoice(t, t.tenant, {});
const res = await t.request('GET', `/invoices/${invoice.id}/document?format=ubl`);
assert.equal(res.status, 200, res.text);
const good: string = res.text;

/** Replaces the one occurrence of `from` (it must be there, or the test would prove nothing). */
function swap(xml: string, from: string | RegExp, to: string): string {
  const changed = xml.replace(from, to);
  assert.notEqual(changed, xml, `the mutation ${String(from)} applies`);
  return changed;
}

const PEPPOL_HEAD =
  '<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>' +
  '<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>';
const claimPeppol = (xml: string) => swap(xml, /<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, PEPPOL_HEAD);
const withEndpoints = (xml: string) =>
  swap(
    swap(
      xml,
      '<cac:AccountingSupplierParty><cac:Party>',
      '<cac:AccountingSupplierParty><cac:Party><cbc:EndpointID schemeID="0191">87654321</cbc:EndpointID>',
    ),
    '<cac:AccountingCustomerParty><cac:Party>',
    '<cac:AccountingCustomerParty><cac:Party><cbc:EndpointID schemeID="0191">12345678</cbc:EndpointID>',
  );
const sellerVat = /(<cac:AccountingSupplierParty>[\s\S]*?)<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/;

export const BROKEN: Record<string, { mutate: (xml: string) => string; rules: string[] }> = {
  'core: buyer without postal address': {
    mutate: (x) =>
      swap(x, /(<cac:AccountingCustomerParty>[\s\S]*?)<cac:PostalAddress>[\s\S]*?<\/cac:PostalAddress>/, '$1'),
    rules: ['BR-10'],
  },
  'core: a line without an item name': {
    mutate: (x) => swap(x, '<cbc:Name>Consulting work</cbc:Name>', ''),
    rules: ['BR-25'],
  },
  'core: a line allowance without a reason': {
    mutate: (x) => swap(x, /<cbc:AllowanceChargeReason>[^<]*<\/cbc:AllowanceChargeReason>/, ''),
    rules: ['BR-42', 'BR-CO-23'],
  },
  'core: a credit transfer without an account': {
    mutate: (x) => swap(x, /<cac:PayeeFinancialAccount>[\s\S]*?<\/cac:PayeeFinancialAccount>/, ''),
    rules: ['BR-61'],
  },
  'totals: amount due does not add up': {
    mutate: (x) =>
      swap(x, '<cbc:PayableAmount currencyID="EUR">1360.73', '<cbc:PayableAmount currencyID="EUR">1360.74'),
    rules: ['BR-CO-16'],
  },
  'totals: VAT total differs from its breakdowns': {
    mutate: (x) => swap(x, '<cbc:TaxAmount currencyID="EUR">220.49', '<cbc:TaxAmount currencyID="EUR">220.50'),
    rules: ['BR-CO-14', 'BR-CO-15'],
  },
  'totals: a breakdown with the wrong tax': {
    mutate: (x) => swap(x, '<cbc:TaxAmount currencyID="EUR">2.75', '<cbc:TaxAmount currencyID="EUR">4.75'),
    rules: ['BR-CO-14', 'BR-CO-17', 'BR-S-09'],
  },
  'totals: a VAT number without a country prefix': {
    mutate: (x) => swap(x, '<cbc:CompanyID>EE101234567</cbc:CompanyID>', '<cbc:CompanyID>101234567</cbc:CompanyID>'),
    rules: ['BR-CO-09'],
  },
  'vat: standard and exempt rows from a seller without a VAT number': {
    mutate: (x) => swap(x, sellerVat, '$1'),
    rules: ['BR-E-02', 'BR-S-02'],
  },
  'vat: an exempt breakdown without a reason': {
    mutate: (x) => swap(x, /<cbc:TaxExemptionReason>[^<]*<\/cbc:TaxExemptionReason>/, ''),
    rules: ['BR-E-10'],
  },
  'vat: a standard-rated line at 0 %': {
    mutate: (x) => swap(x, /(<cac:ClassifiedTaxCategory><cbc:ID>S<\/cbc:ID><cbc:Percent>)22/, '$10'),
    rules: ['BR-S-05', 'BR-S-08'],
  },
  'codes: an unknown currency, unit and country': {
    mutate: (x) =>
      swap(
        swap(x, 'unitCode="HUR"', 'unitCode="HOURS"'),
        /(<cac:AccountingCustomerParty>[\s\S]*?<cbc:IdentificationCode>)EE/,
        '$1XX',
      ),
    rules: ['BR-CL-14', 'BR-CL-23'],
  },
  'codes: an unknown VAT category and payment means': {
    mutate: (x) =>
      swap(swap(x, '<cbc:PaymentMeansCode>30', '<cbc:PaymentMeansCode>99'), '<cbc:ID>E</cbc:ID>', '<cbc:ID>X</cbc:ID>'),
    rules: ['BR-CL-16', 'BR-CL-17', 'BR-E-01'],
  },
  'decimals: an amount with three places': {
    mutate: (x) => swap(x, '<cbc:PrepaidAmount currencyID="EUR">0.00', '<cbc:PrepaidAmount currencyID="EUR">0.000'),
    rules: ['BR-DEC-16', 'UBL-DT-01'],
  },
  'peppol: a Peppol profile with a plain EN 16931 identifier and no electronic addresses': {
    mutate: (x) =>
      swap(
        x,
        '</cbc:CustomizationID>',
        '</cbc:CustomizationID><cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>',
      ),
    rules: ['PEPPOL-EN16931-R004', 'PEPPOL-EN16931-R010', 'PEPPOL-EN16931-R020'],
  },
  'peppol: no buyer reference, two notes, an empty element': {
    mutate: (x) =>
      swap(
        swap(claimPeppol(withEndpoints(x)), /<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, ''),
        /<cbc:Note>[^<]*<\/cbc:Note>/,
        '<cbc:Note>one</cbc:Note><cbc:Note>two</cbc:Note><cbc:AccountingCost></cbc:AccountingCost>',
      ),
    rules: ['PEPPOL-EN16931-R002', 'PEPPOL-EN16931-R003', 'PEPPOL-EN16931-R008'],
  },
  'peppol: a line net that is not quantity times price': {
    mutate: (x) =>
      swap(
        claimPeppol(withEndpoints(x)),
        '<cbc:PriceAmount currencyID="EUR">85.50',
        '<cbc:PriceAmount currencyID="EUR">85.60',
      ),
    rules: ['PEPPOL-EN16931-R120'],
  },
};

test('a valid Peppol BIS 3 claim (identifiers, profile, endpoints) on a good document finds nothing', () => {
  const xml = claimPeppol(withEndpoints(good));
  if (dumpDir) writeFileSync(`${dumpDir}/good-peppol.xml`, xml);
  assertNoFindings(xml, 'peppol');
});

test('the document made through the API breaks none of the rules', () => {
  assertNoFindings(good);
});

for (const [name, { mutate, rules }] of Object.entries(BROKEN))
  test(`broken document, ${name}: flagged ${rules.join(', ')}`, () => {
    const xml = mutate(good);
    if (dumpDir) writeFileSync(`${dumpDir}/${name.replace(/[^a-z0-9]+/gi, '-')}.xml`, xml);
    assert.deepEqual(ruleIds(xml), rules);
    for (const f of checkEInvoice(xml)) {
      assert.equal(f.flag, 'fatal');
      assert.match(f.location, /^\/Invoice/, 'a location in the document');
      assert.ok(f.message.length > 10);
    }
  });

test('text that is not a UBL invoice is one fatal SYNTAX finding, never an exception', () => {
  for (const xml of ['', 'not xml', '<Order/>', '<a><b></a>'])
    assert.deepEqual(ruleIds(xml), ['SYNTAX'], JSON.stringify(xml));
});

test('a UBL CreditNote is read with its own names (CreditNoteLine, CreditedQuantity) and BillingReference', () => {
  const credit = good
    .replace(
      'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
      'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
    )
    .replace(/<(\/?)Invoice([ >])/g, '<$1CreditNote$2')
    .replace(/InvoiceTypeCode/g, 'CreditNoteTypeCode')
    .replace('CreditNoteTypeCode>380<', 'CreditNoteTypeCode>381<')
    .replace(/InvoiceLine>/g, 'CreditNoteLine>')
    .replace(/InvoicedQuantity/g, 'CreditedQuantity')
    .replace(
      '<cac:AccountingSupplierParty>',
      '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>A-1</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference><cac:AccountingSupplierParty>',
    );
  if (dumpDir) writeFileSync(`${dumpDir}/good-credit-note.xml`, credit);
  assertNoFindings(credit, 'credit note');
  const noReference = credit.replace(
    '<cbc:ID>A-1</cbc:ID></cac:InvoiceDocumentReference>',
    '</cac:InvoiceDocumentReference>',
  );
  assert.deepEqual(ruleIds(noReference), ['BR-55']);
  assert.deepEqual(ruleIds(credit.replace(/<cbc:Name>Consulting work<\/cbc:Name>/, '')), ['BR-25']);
});
