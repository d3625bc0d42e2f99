import type { FastifyInstance } from 'fastify';
import { SAMPLE_STAMP as STAMP } from '../../platform/events.ts';
import { defineModule } from '../../platform/modules.ts';
import invoiceRowRoutes from './invoice-rows.routes.ts';
import invoiceRoutes from './invoices.routes.ts';

/** What the invoice-documents module (export, send, documents) reads and locks. */
export {
  findInvoice,
  findInvoiceHeader,
  lockInvoice,
  type InvoiceHeader,
  type LockedInvoice,
} from './invoices.repository.ts';
export { fireUpdated as recordInvoiceUpdated, readInvoice } from './invoice-writes.ts';
/** Sending (invoice-documents): the status rule, and what a send that went out or failed leaves on the invoice. */
export { assertExportable, assertSendable, isSendable } from './invoice-status.ts';
/** Which invoices are billed (revenue, spend, locked time, exports) and which are locked: one definition each. */
export {
  BILLED_STATUSES,
  billedStatus,
  countedStatus,
  invoiceType,
  isBilled,
  LOCKED_STATUSES,
  signedAmount,
} from './invoice-status.ts';
/** Reclaims: which invoices bill the entries they would move. */
export { invoiceLinks, type InvoiceLink } from './invoice-entries.ts';
export { recordExported, recordSendFailure, recordSent } from './invoice-delivery.ts';
/** Documents (invoice-documents) render the stored invoice with every row. */
export { allStoredRows, storedInvoice, type StoredInvoice, type StoredInvoiceRow } from './invoices.stored.ts';
/** Accounting integrations page the invoices they still have to take, with each one's row count. */
export { invoiceRowCount, notExportedInvoices, type NotExportedQuery } from './invoices.exportable.ts';
/** The billing engine writes drafts through the same rules as POST /invoices. */
export { insertDraft, type DraftExtras } from './invoices.service.ts';
export {
  Invoice,
  InvoiceRow,
  type InvoiceRecord,
  type InvoiceRowRecord,
  type InvoiceRowInput,
  type InvoiceStatus,
} from './invoices.schemas.ts';

async function routes(app: FastifyInstance) {
  await invoiceRoutes(app);
  await invoiceRowRoutes(app);
}

export default defineModule({
  name: 'invoices',
  tables: ['invoice_number_counters', 'invoice_row_entries', 'invoice_row_fees', 'invoice_rows', 'invoices'],
  entity: 'invoice',
  routes,
  // There is no invoice.deleted: invoices are annulled, never deleted. Events carry the invoice without rows.
  events: { invoice: ['created', 'updated'] },
  samples: {
    invoice: {
      id: 501,
      type: 'invoice',
      credited_invoice_id: null,
      client_id: 101,
      contract_id: null,
      seller_id: 3,
      status: 'created',
      invoice_number: 'INV-2026-0042',
      invoice_date: '2026-01-15',
      due_date: '2026-01-29T00:00:00.000Z',
      net_sum: 1000,
      tax_sum: 220,
      total_sum: 1220,
      paid_sum: 0,
      currency: 'EUR',
      client_name: 'Acme Ltd',
      client_reg_code: '12345678',
      client_vat_code: 'EE123456789',
      client_contact: 'Jane Doe <jane@acme.example>',
      seller_name: 'Example Services OÜ',
      seller_reg_code: '87654321',
      seller_vat_code: 'EE987654321',
      seller_address: 'Main St 1, Tallinn',
      seller_contact: 'Olive Owner <olive@example.com>',
      locale_code: 'en',
      comments: null,
      reference_number: '1234561',
      period_label: '2026-01',
      exported_at: null,
      sent_at: null,
      paid_at: null,
      send_error: null,
      send_failed_at: null,
      created_at: STAMP,
      updated_at: STAMP,
    },
  },
});
