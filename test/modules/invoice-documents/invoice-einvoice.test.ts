import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createTestApp } from '../../helpers.ts';
import { invoiceFixtures } from '../invoices/support.ts';
import { writeFileSync } from 'node:fs';
import { makeInvoice, type InvoiceSpec } from './fixtures.ts';
import { SHAPES } from './shapes.ts';

const t = await createTestApp();
const dumpDir = process.env.UBL_DUMP_DIR;
const f = invoiceFixtures(t);

const XRECHNUNG = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';

function parse(xml: string) {
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  return new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (name) => name === 'cac:TaxSubtotal',
  }).parse(xml).Invoice;
}

async function refusedField(method: 'POST' | 'PATCH', path: string, body: Record<string, unknown>, field: string) {
  const res = await t.request(method, path, { body });
  assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  assert.equal(res.body.error.details.field, field, JSON.stringify(body));
}

/** Bodies each refused with 400 naming the field: a scheme off the EAS list, ids failing their scheme's form, half a pair. */
const BAD_ENDPOINTS: Array<[Record<string, unknown>, string]> = [
  [{ endpoint_id: '4000001000005', endpoint_scheme: '1234' }, 'endpoint_scheme'],
  [{ endpoint_id: '4000001000006', endpoint_scheme: '0088' }, 'endpoint_id'], // GLN check digit
  [{ endpoint_id: '0477472702', endpoint_scheme: '0208' }, 'endpoint_id'], // Belgian mod 97
  [{ endpoint_id: '974760674', endpoint_scheme: '0192' }, 'endpoint_id'], // Norwegian mod 11
  [{ endpoint_id: '5560360794', endpoint_scheme: '0007' }, 'endpoint_id'], // Swedish Luhn
  [{ endpoint_id: '51824753557', endpoint_scheme: '0151' }, 'endpoint_id'], // ABN mod 89
  [{ endpoint_id: '1234567', endpoint_scheme: '0184' }, 'endpoint_id'], // Danish CVR: 8 digits
  [{ endpoint_id: 'IT01234567890', endpoint_scheme: '0211' }, 'endpoint_id'], // Partita IVA check digit
  [{ endpoint_id: 'has space', endpoint_scheme: '9930' }, 'endpoint_id'],
  [{ endpoint_id: '4000001000005' }, 'endpoint_scheme'],
  [{ endpoint_scheme: '0088' }, 'endpoint_id'],
  [{ endpoint_id: '4000001000005', endpoint_scheme: null }, 'endpoint_scheme'],
];

test('a seller stores its electronic address (scheme in capitals), phone, city and postcode; bad ones are 400', async () => {
  const res = await t.request('POST', '/invoice-sellers', {
    body: {
      name: 'Peppol Seller OÜ',
      endpoint_id: ' 4000001000005 ',
      endpoint_scheme: '0088',
      phone: '+372 555 0100',
      address_city: 'Tallinn',
      address_zip: '10111',
    },
  });
  assert.equal(res.status, 201, res.text);
  const seller = res.body.data;
  assert.deepEqual(
    [seller.endpoint_id, seller.endpoint_scheme, seller.phone, seller.address_city, seller.address_zip],
    ['4000001000005', '0088', '+372 555 0100', 'Tallinn', '10111'],
  );
  const row = await t.db.db
    .selectFrom('invoice_sellers')
    .select(['endpoint_id', 'endpoint_scheme'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', seller.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { endpoint_id: '4000001000005', endpoint_scheme: '0088' });
  for (const [body, field] of BAD_ENDPOINTS) await refusedField('PATCH', `/invoice-sellers/${seller.id}`, body, field);
  const lower = await t.request('PATCH', `/invoice-sellers/${seller.id}`, {
    body: { endpoint_id: 'de123456789', endpoint_scheme: 'em' },
  });
  assert.equal(lower.status, 200, lower.text);
  assert.equal(lower.body.data.endpoint_scheme, 'EM');
  const cleared = await t.request('PATCH', `/invoice-sellers/${seller.id}`, {
    body: { endpoint_id: null, endpoint_scheme: null },
  });
  assert.deepEqual([cleared.body.data.endpoint_id, cleared.body.data.endpoint_scheme], [null, null]);
  const writeKey = await t.request('PATCH', `/invoice-sellers/${seller.id}`, {
    key: 'write',
    body: { endpoint_id: '4000001000005', endpoint_scheme: '0088' },
  });
  assert.equal(writeKey.status, 403, 'the electronic address is profile: admin (financials) like the VAT number');
  assert.deepEqual(writeKey.body.error.details.fields, ['endpoint_id', 'endpoint_scheme']);
});

test('a client stores its electronic address; bad ones are 400 naming the field', async () => {
  const res = await t.request('POST', '/clients', {
    body: { name: 'Peppol Buyer', endpoint_id: '0477472701', endpoint_scheme: '0208' },
  });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual([res.body.data.endpoint_id, res.body.data.endpoint_scheme], ['0477472701', '0208']);
  for (const [body, field] of BAD_ENDPOINTS) {
    await refusedField('POST', '/clients', { name: 'X', ...body }, field);
    await refusedField('PATCH', `/clients/${res.body.data.id}`, body, field);
  }
  // The same ids with their right check digits pass (the official Peppol rules agree, PEPPOL-COMMON-R040..R050).
  const good = [
    ['974760673', '0192'],
    ['5560360793', '0007'],
    ['51824753556', '0151'],
    ['DK12345678', '0184'],
    ['IT01234567897', '0211'],
    ['5790000435951', '0088'],
  ];
  for (const [endpoint_id, endpoint_scheme] of good) {
    const ok = await t.request('POST', '/clients', { body: { name: 'Y', endpoint_id, endpoint_scheme } });
    assert.equal(ok.status, 201, `${endpoint_scheme} ${endpoint_id}: ${ok.text}`);
  }
  const again = await t.request('GET', `/clients/${res.body.data.id}`);
  assert.equal(again.body.data.endpoint_id, '0477472701', 'unchanged by the refused writes');
});

test('finalizing copies both electronic addresses onto the invoice: its UBL claims Peppol with them ever after', async () => {
  const sellerId = await f.seller({ endpoint_id: '4000001000005', endpoint_scheme: '0088' });
  const clientId = await f.client({ name: 'Buyer NV', address_country_code: 'be' });
  const patch = (body: Record<string, unknown>) => t.request('PATCH', `/clients/${clientId}`, { body });
  assert.equal((await patch({ endpoint_id: '0477472701', endpoint_scheme: '0208' })).status, 200);
  const tax = await f.tax('VAT 21', '0.21');
  const draft = await f.invoice({
    client_id: clientId,
    seller_id: sellerId,
    rows: [{ description: 'Work', quantity: 2, net_price: 50, tax_id: tax }],
  });
  await f.finalize(draft.id);
  assert.equal((await patch({ endpoint_id: null, endpoint_scheme: null })).status, 200);
  const stored = await f.stored(draft.id);
  assert.deepEqual(
    [
      stored.seller_endpoint_id,
      stored.seller_endpoint_scheme,
      stored.client_endpoint_id,
      stored.client_endpoint_scheme,
    ],
    ['4000001000005', '0088', '0477472701', '0208'],
  );
  const res = await t.request('GET', `/invoices/${draft.id}/document?format=ubl`);
  assert.equal(res.status, 200, res.text);
  const doc = parse(res.text);
  assert.equal(doc['cbc:ProfileID'], 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
  assert.equal(doc['cac:AccountingCustomerParty']['cac:Party']['cbc:EndpointID']['#text'], '0477472701');
  assert.equal(doc['cbc:BuyerReference'], stored.reference_number ?? stored.invoice_number);
});

/** Everything XRechnung asks for beyond EN 16931, on the invoice's snapshot and the client record. */
const XRECHNUNG_READY: InvoiceSpec = {
  snapshot: {
    seller_endpoint_id: 'DE123456789',
    seller_endpoint_scheme: '9930',
    client_endpoint_id: '04011000-1234512345-06',
    client_endpoint_scheme: '0204',
    seller_phone: '+49 30 1234567',
    seller_city: 'Berlin',
    seller_zip: '10115',
    seller_contact: 'Olive Owner <olive@seller.example>',
  },
  client: { address_street: 'Amtsweg 1', address_city: 'Potsdam', address_zip: '14467', address_country_code: 'de' },
};

test('format=xrechnung: UBL under the XRechnung 3.0 CIUS, the Leitweg-ID as buyer reference, a full seller contact', async () => {
  const invoice = await makeInvoice(t, t.tenant, XRECHNUNG_READY);
  const res = await t.request('GET', `/invoices/${invoice.id}/document?format=xrechnung`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('content-type'), 'application/xml; charset=utf-8');
  assert.equal(
    res.headers.get('content-disposition'),
    `attachment; filename="invoice-A-${invoice.clientId}-xrechnung.xml"`,
  );
  const doc = parse(res.text);
  assert.equal(doc['cbc:CustomizationID'], XRECHNUNG);
  assert.equal(doc['cbc:BuyerReference'], '04011000-1234512345-06', 'BR-DE-15');
  const seller = doc['cac:AccountingSupplierParty']['cac:Party'];
  assert.deepEqual(seller['cbc:EndpointID'], { '#text': 'DE123456789', '@_schemeID': '9930' });
  assert.deepEqual(seller['cac:Contact'], {
    'cbc:Name': 'Olive Owner',
    'cbc:Telephone': '+49 30 1234567',
    'cbc:ElectronicMail': 'olive@seller.example',
  }); // BR-DE-2, -5, -6, -7
  assert.equal(seller['cac:PostalAddress']['cbc:CityName'], 'Berlin', 'BR-DE-3');
  assert.equal(seller['cac:PostalAddress']['cbc:PostalZone'], '10115', 'BR-DE-4');
  const buyer = doc['cac:AccountingCustomerParty']['cac:Party'];
  assert.equal(buyer['cac:PostalAddress']['cbc:CityName'], 'Potsdam', 'BR-DE-8');
  assert.equal(buyer['cac:PostalAddress']['cbc:PostalZone'], '14467', 'BR-DE-9');
  assert.equal(doc['cac:PaymentMeans']['cbc:PaymentMeansCode'], '30', 'BR-DE-1');
  assert.equal(doc['cac:PaymentMeans']['cac:PayeeFinancialAccount']['cbc:ID'], 'EE382200221020145685');
  const pdf = await t.request('GET', `/invoices/${invoice.id}/document?format=ubl`);
  assert.equal(parse(pdf.text)['cbc:ProfileID'], 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 'ubl stays Peppol');
});

for (const [name, spec] of Object.entries(SHAPES))
  test(`XRechnung shape ${name}: with the CIUS's data added the document is XRechnung with every BR-DE element`, async () => {
    const invoice = await makeInvoice(t, t.tenant, {
      ...spec,
      snapshot: { ...spec.snapshot, ...XRECHNUNG_READY.snapshot },
      client: { ...spec.client, ...XRECHNUNG_READY.client },
    });
    const res = await t.request('GET', `/invoices/${invoice.id}/document?format=xrechnung`);
    assert.equal(res.status, 200, res.text);
    if (dumpDir) writeFileSync(`${dumpDir}/${name}.xrechnung.xml`, res.text);
    const doc = parse(res.text);
    assert.equal(doc['cbc:CustomizationID'], XRECHNUNG);
    assert.ok(doc['cbc:BuyerReference'], 'BR-DE-15');
    assert.ok(doc['cac:PaymentMeans'], 'BR-DE-1');
    for (const subtotal of doc['cac:TaxTotal']['cac:TaxSubtotal'])
      assert.match(subtotal['cac:TaxCategory']['cbc:Percent'], /^\d/, 'BR-DE-14: a rate in every breakdown, 0 for O');
    const seller = doc['cac:AccountingSupplierParty']['cac:Party'];
    assert.deepEqual(Object.keys(seller['cac:Contact']), ['cbc:Name', 'cbc:Telephone', 'cbc:ElectronicMail']);
    for (const side of ['cac:AccountingSupplierParty', 'cac:AccountingCustomerParty']) {
      const party = doc[side]['cac:Party'];
      assert.ok(party['cbc:EndpointID']['@_schemeID'], side);
      assert.ok(party['cac:PostalAddress']['cbc:CityName'] && party['cac:PostalAddress']['cbc:PostalZone'], side);
    }
  });

test('format=xrechnung is refused with 422 EINVOICE_DATA_MISSING naming every field the CIUS needs and the records lack', async () => {
  const bare = await makeInvoice(t, t.tenant, {
    snapshot: { reference_number: null, seller_contact: 'Olive Owner', seller_iban: null },
    client: { address_city: null, address_zip: null },
  });
  const res = await t.request('GET', `/invoices/${bare.id}/document?format=xrechnung`);
  assert.equal(res.status, 422, res.text);
  assert.equal(res.body.error.code, 'EINVOICE_DATA_MISSING');
  assert.deepEqual(res.body.error.details.missing, [
    'invoice_seller.endpoint_id',
    'client.endpoint_id',
    'invoice_seller.address_city',
    'invoice_seller.address_zip',
    'invoice.seller_contact',
    'invoice_seller.phone',
    'client.address_city',
    'client.address_zip',
    'invoice_seller.iban_1',
    'invoice.reference_number or client.endpoint_id (scheme 0204)',
  ]);
  const enFirst = await makeInvoice(t, t.tenant, {
    ...XRECHNUNG_READY,
    snapshot: { ...XRECHNUNG_READY.snapshot, seller_phone: null, seller_vat_code: null },
  });
  const both = await t.request('GET', `/invoices/${enFirst.id}/document?format=xrechnung`);
  assert.equal(both.status, 422);
  assert.deepEqual(both.body.error.details.missing, ['invoice_seller.vat_number', 'invoice_seller.phone']);
});
