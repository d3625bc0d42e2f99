import { extractText, getDocumentProxy } from 'unpdf';
import type { TestApp, TenantFixture } from '../../helpers.ts';
import { rowSums, sumMoney } from '../../../src/platform/money.ts';

export interface RowSpec {
  description: string;
  quantity: string;
  unit?: string;
  net_price: string;
  discount_rate?: string;
  /** A tax record of this rate and name; none: the row has no tax. */
  tax?: { name: string; rate: string };
}

export interface InvoiceSpec {
  status?: 'draft' | 'created' | 'sent' | 'paid' | 'annulled';
  locale_code?: string;
  currency?: string;
  invoice_number?: string | null;
  paid_sum?: string;
  contract_recipients?: unknown;
  /** Addresses stored on the invoice itself. */
  recipients?: string[];
  primary_contact_email?: string | null;
  comments?: string | null;
  seller_name?: string;
  client_name?: string;
  rows?: RowSpec[];
  /** Overrides of the snapshot the invoice carries (seller_vat_code: null, client_address: null...). */
  snapshot?: Record<string, string | null>;
  /** Overrides of the client record (address parts, vat_code...). */
  client?: Record<string, string | null>;
}

/** Four rows: 22 % with and without a discount, no tax, 9 %; money chosen so per-row rounding matters. */
export const STANDARD_ROWS: RowSpec[] = [
  {
    description: 'Consulting work',
    quantity: '10',
    unit: 'h',
    net_price: '85.5',
    tax: { name: 'VAT 22', rate: '0.22' },
  },
  {
    description: 'Software licence',
    quantity: '3',
    unit: 'pcs',
    net_price: '49.9',
    discount_rate: '10',
    tax: { name: 'VAT 22', rate: '0.22' },
  },
  { description: 'Travel <& "expenses">', quantity: '1', net_price: '120' },
  { description: 'Books', quantity: '2', unit: 'pcs', net_price: '15.255', tax: { name: 'VAT 9', rate: '0.09' } },
];

const taxIds = new Map<string, number>();

async function taxId(t: TestApp, tenant: TenantFixture, tax: { name: string; rate: string }): Promise<number> {
  const key = `${tenant.companyId}:${tax.name}:${tax.rate}`;
  if (!taxIds.has(key)) {
    const row = await t.db.db
      .insertInto('taxes')
      .values({ company_id: tenant.companyId, name: tax.name, rate: tax.rate })
      .returning('id')
      .executeTakeFirstOrThrow();
    taxIds.set(key, row.id);
  }
  return taxIds.get(key)!;
}

async function clientWithContact(t: TestApp, tenant: TenantFixture, spec: InvoiceSpec) {
  const client = await t.db.db
    .insertInto('clients')
    .values({
      company_id: tenant.companyId,
      name: spec.client_name ?? 'Buyer Corp',
      reg_code: '12345678',
      vat_code: 'EE101234567',
      address_country_code: 'EE',
      ...spec.client,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  if (spec.primary_contact_email !== null)
    await t.db.db
      .insertInto('contacts')
      .values([
        { company_id: tenant.companyId, client_id: client.id, name: 'Other', email: 'other@buyer.example' },
        {
          company_id: tenant.companyId,
          client_id: client.id,
          name: 'Paula',
          surname: 'Primary',
          is_primary: 1,
          email: spec.primary_contact_email ?? 'paula@buyer.example',
        },
      ] as never)
      .execute();
  return client.id;
}

async function contractFor(t: TestApp, tenant: TenantFixture, clientId: number, recipients: unknown) {
  if (recipients === undefined) return null;
  const row = await t.db.db
    .insertInto('contracts')
    .values({
      company_id: tenant.companyId,
      client_id: clientId,
      name: 'Support contract',
      status: 'active',
      settings: JSON.stringify({ invoice_recipients: recipients }),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Rows with their sums as the invoices module derives them (money.ts), and the header sums as their totals. */
async function rowValues(t: TestApp, tenant: TenantFixture, rows: RowSpec[], currency: string) {
  const values = [];
  for (const row of rows) {
    const sums = rowSums({ ...row, tax_rate: row.tax?.rate ?? null }, currency);
    values.push({
      description: row.description,
      quantity: row.quantity,
      unit: row.unit ?? null,
      net_price: row.net_price,
      discount_rate: row.discount_rate ?? '0',
      tax_id: row.tax ? await taxId(t, tenant, row.tax) : null,
      tax_rate: row.tax?.rate ?? null,
      tax_name: row.tax?.name ?? null,
      ...sums,
    });
  }
  return values;
}

/** The snapshot a finalized invoice carries: seller and client as they were, dates, reference, period. */
const snapshot = (spec: InvoiceSpec) => ({
  invoice_date: '2026-11-20',
  due_date: '2026-12-04',
  client_name: spec.client_name ?? 'Buyer Corp',
  client_reg_code: '12345678',
  client_vat_code: 'EE101234567',
  client_contact: 'Paula Primary',
  client_address: 'Buyer street 1, Tallinn',
  seller_name: spec.seller_name ?? 'Seller Ltd',
  seller_reg_code: '87654321',
  seller_vat_code: 'EE100000001',
  seller_address: 'Seller road 9, Tartu',
  seller_contact: 'billing@seller.example',
  seller_bank: 'Example Bank',
  seller_iban: 'EE382200221020145685',
  locale_code: spec.locale_code ?? 'en',
  comments: spec.comments === undefined ? 'Thank you for your business' : spec.comments,
  reference_number: '1234561',
  period_label: 'November 2026',
  period_from: '2026-11-01',
  period_until: '2026-11-30',
  recipients: spec.recipients ?? null,
  ...spec.snapshot,
});

/** An invoice straight in SQL with consistent sums, snapshots and (by default) a client with a primary contact. */
export async function makeInvoice(t: TestApp, tenant: TenantFixture, spec: InvoiceSpec = {}) {
  const currency = spec.currency ?? 'EUR';
  const clientId = await clientWithContact(t, tenant, spec);
  const contractId = await contractFor(t, tenant, clientId, spec.contract_recipients);
  const rows = await rowValues(t, tenant, spec.rows ?? STANDARD_ROWS, currency);
  const net = sumMoney(rows.map((r) => r.net_sum));
  const tax = sumMoney(rows.map((r) => r.tax_sum));
  const status = spec.status ?? 'created';
  const number =
    spec.invoice_number === undefined ? (status === 'draft' ? null : `A-${clientId}`) : spec.invoice_number;
  const invoice = await t.db.db
    .insertInto('invoices')
    .values({
      ...snapshot(spec),
      company_id: tenant.companyId,
      client_id: clientId,
      contract_id: contractId,
      status,
      invoice_number: number,
      net_sum: net.toFixed(2),
      tax_sum: tax.toFixed(2),
      total_sum: net.plus(tax).toFixed(2),
      paid_sum: spec.paid_sum ?? '0',
      currency,
    } as never)
    .returning(['id', 'updated_at'])
    .executeTakeFirstOrThrow();
  if (rows.length > 0)
    await t.db.db
      .insertInto('invoice_rows')
      .values(rows.map((r) => ({ ...r, company_id: tenant.companyId, invoice_id: invoice.id })) as never)
      .execute();
  return { id: invoice.id, etag: `"${invoice.updated_at}"`, clientId, contractId };
}

export const storedInvoice = (t: TestApp, id: number, tenant: TenantFixture = t.tenant) =>
  t.db.db
    .selectFrom('invoices')
    .selectAll()
    .where('company_id', '=', tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** The PDF's text as unpdf extracts it, no-break spaces as plain ones. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text.replace(/\u00a0/g, ' ');
}

/** GET a document as raw bytes (t.request reads text, which would mangle a PDF). */
export async function download(t: TestApp, path: string, key = 'admin', tenant: TenantFixture = t.tenant) {
  const response = await fetch(`${t.baseUrl}/api/v3${path}`, {
    headers: { 'x-service-company': tenant.companyId, 'x-api-key': tenant.keys[key as 'admin'] },
  });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Polls GET /jobs/{id} until the predicate holds. */
export async function waitForJobState(t: TestApp, jobId: number, done: (job: any) => boolean): Promise<any> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const res = await t.request('GET', `/jobs/${jobId}`);
    if (res.status === 200 && done(res.body.data)) return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not reach the expected state`);
}
