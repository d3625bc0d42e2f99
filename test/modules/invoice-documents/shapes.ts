import assert from 'node:assert/strict';
import type { TestApp } from '../../helpers.ts';
import { STANDARD_ROWS, type InvoiceSpec } from './fixtures.ts';

/**
 * The invoice shapes every e-invoice format is checked on (issue 27): two rates, discounts and an untaxed row,
 * zero-rated and exempt, a buyer without address or VAT number, a seller without one, non-ASCII text, USD,
 * paid, a deduction row, address parts. UBL_DUMP_DIR=/tmp/x writes each document there for the official
 * validators run by hand (they need Java).
 */
export const UNTAXED = [
  { description: 'Workshop', quantity: '2', unit: 'day', net_price: '400', discount_rate: '5' },
  { description: 'Materials', quantity: '1', net_price: '35.5' },
];

export const SHAPES: Record<string, InvoiceSpec> = {
  'two-rates-discount-untaxed': {},
  'zero-and-exempt': {
    rows: [
      { description: 'Export goods', quantity: '1.5', unit: 'kg', net_price: '10', tax: { name: 'Zero', rate: '0' } },
      { description: 'Exempt course', quantity: '1', net_price: '99.99' },
      { description: 'Advice', quantity: '1', net_price: '50', tax: { name: 'VAT 22', rate: '0.22' } },
    ],
  },
  'buyer-without-address-or-vat': {
    snapshot: { client_address: null, client_vat_code: null, client_contact: null },
    client: { vat_code: null, address_street: null, address_city: null, address_zip: null },
  },
  'seller-without-vat': { snapshot: { seller_vat_code: null }, rows: UNTAXED },
  'non-ascii': {
    seller_name: 'Łódź Usługi Sp. z o.o.',
    client_name: 'Ελληνική Εταιρεία 株式会社',
    snapshot: { seller_address: 'ulica Żółta 5, Łódź', client_contact: 'Zoë Ångström <zoe@buyer.example>' },
    client: {
      address_street: 'Οδός Αθηνάς 3',
      address_city: 'Αθήνα',
      address_zip: '10551',
      address_country_code: 'gr',
    },
    rows: [
      {
        description: 'Перевод документов «срочно»',
        quantity: '3',
        unit: 'h',
        net_price: '40',
        tax: { name: 'VAT 22', rate: '0.22' },
      },
    ],
  },
  'foreign-currency': { currency: 'USD', client: { address_country_code: 'us' }, snapshot: { client_vat_code: null } },
  paid: { status: 'paid', paid_sum: '1360.73' },
  'deduction-row': {
    rows: [
      { description: 'Consulting', quantity: '4', unit: 'h', net_price: '90', tax: { name: 'VAT 22', rate: '0.22' } },
      { description: 'Goodwill credit', quantity: '1', net_price: '-50.5', tax: { name: 'VAT 22', rate: '0.22' } },
    ],
  },
  'with-address-parts': {
    client: {
      address_street: 'Buyer street 1',
      address_city: 'Tallinn',
      address_zip: '10111',
      address_country_code: 'ee',
    },
    rows: STANDARD_ROWS.slice(0, 2),
  },
};

/** The engine-made shape: a draft the billing engine makes for a contract, with the default seller; its id. */
export async function engineMadeInvoice(t: TestApp): Promise<number> {
  const insert = async (table: string, values: Record<string, unknown>) =>
    (
      (await t.db.db
        .insertInto(table as never)
        .values({ company_id: t.tenant.companyId, ...values } as never)
        .returning('id' as never)
        .executeTakeFirstOrThrow()) as { id: number }
    ).id;
  const sellerId = await insert('invoice_sellers', {
    name: 'Engine Seller OÜ',
    address: 'Pikk 1, Tallinn',
    vat_number: 'EE100000002',
    iban_1: 'EE382200221020145685',
  });
  const settings = await t.request('PATCH', '/company/billing-settings', {
    body: { billing_active: true, default_seller_id: sellerId },
  });
  assert.equal(settings.status, 200, settings.text);
  const client = await t.request('POST', '/clients', {
    body: { name: 'Engine Buyer AS', vat_code: 'EE101234568', address_city: 'Tartu', address_country_code: 'ee' },
  });
  assert.equal(client.status, 201, client.text);
  const tax = await insert('taxes', { name: 'VAT 24', rate: '0.24' });
  const contract = await insert('contracts', {
    client_id: client.body.data.id,
    name: 'Support',
    status: 'active',
    settings: '{}',
  });
  await insert('contract_rows', {
    contract_id: contract,
    description: 'Retainer',
    quantity: '1',
    net_price: '500',
    tax_id: tax,
  });
  const billed = await t.request('POST', `/clients/${client.body.data.id}/invoices`, {
    body: { date_from: '2026-10-01', date_to: '2026-10-31' },
  });
  assert.equal(billed.status, 201, billed.text);
  return billed.body.data.invoices[0].id;
}
