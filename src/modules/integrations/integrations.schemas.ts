import { Type, type Static } from 'typebox';
import { DateOnly, EnumList, Id, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';
import { BILLED_STATUSES } from '../invoices/index.ts';

/** Invoice statuses an accounting system takes: the billed ones, as the invoices module defines them. */
export const EXPORTABLE_STATUSES = BILLED_STATUSES;

const Money = (description: string) => Type.Number({ description });

/** The invoice header an accounting system books; rows and documents are read from /invoices/{id}. */
export const IntegrationInvoice = Type.Object(
  {
    id: Type.Integer(),
    invoice_number: Nullable(Type.String()),
    status: Type.Union(
      EXPORTABLE_STATUSES.map((s) => Type.Literal(s)),
      { description: 'created, sent or paid' },
    ),
    client_id: Type.Integer(),
    contract_id: Nullable(Type.Integer()),
    seller_id: Nullable(Type.Integer()),
    client_name: Type.String(),
    client_reg_code: Nullable(Type.String()),
    client_vat_code: Nullable(Type.String()),
    invoice_date: DateOnly('Invoice date'),
    due_date: Timestamp('Due date (midnight UTC of the due day, as GET /invoices answers it)'),
    currency: Type.String(),
    net_sum: Money('Net total'),
    tax_sum: Money('Tax total'),
    total_sum: Money('Total with tax'),
    paid_sum: Money('Paid so far'),
    reference_number: Nullable(Type.String()),
    row_count: Type.Integer({ description: 'Rows on the invoice (read them with GET /invoices/{id})' }),
    exported_at: Nullable(Timestamp('Always null here: exported invoices leave this list')),
    sent_at: Nullable(Timestamp('When it was sent')),
    paid_at: Nullable(Timestamp('When it was paid')),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'IntegrationInvoice' },
);
export type IntegrationInvoiceRecord = Static<typeof IntegrationInvoice>;

export const INTEGRATION_INVOICE_LIST_OPTIONS = {
  sortable: { id: 'i.id', invoice_date: 'i.invoice_date', updated_at: 'i.updated_at' },
  defaultSort: 'id',
  // Integrations are not in the spec's list of cursor-mode resources.
  cursor: false,
};
export const INTEGRATION_INVOICE_FILTERS = ['status', 'client_id', 'invoice_date_from', 'invoice_date_to'] as const;
export const IntegrationInvoiceListQuery = listQuery(
  {
    status: Type.Optional(EnumList(EXPORTABLE_STATUSES, 'Status filter')),
    client_id: Type.Optional(Id('Invoices of this client')),
    invoice_date_from: Type.Optional(DateOnly('Invoice date on or after this day')),
    invoice_date_to: Type.Optional(DateOnly('Invoice date on or before this day')),
  },
  INTEGRATION_INVOICE_LIST_OPTIONS,
);

/** What the sync collects, in this order. */
export const SYNC_ENTITIES = ['taxes', 'products', 'invoice_sellers', 'clients'] as const;
export type SyncEntity = (typeof SYNC_ENTITIES)[number];

export const SyncRequest = Type.Object(
  {
    entities: Type.Optional(
      Type.Array(
        Type.Union(
          SYNC_ENTITIES.map((e) => Type.Literal(e)),
          { description: SYNC_ENTITIES.join(', ') },
        ),
        { minItems: 1, maxItems: SYNC_ENTITIES.length, uniqueItems: true, description: 'Default: all of them' },
      ),
    ),
  },
  { additionalProperties: false, title: 'ReferenceDataSyncRequest' },
);
export type SyncRequestBody = Static<typeof SyncRequest>;

/** Ids kept per entity in the job's summary; the count is always complete. */
export const SUMMARY_ID_CAP = 1000;

export interface EntitySummary {
  count: number;
  ids: number[];
  ids_truncated: boolean;
}

/** The job's result: what was (or, with no accounting system connected, would have been) sent. */
export interface SyncSummary {
  accounting_system: string | null;
  delivered: boolean;
  note: string;
  collected_at: string;
  entities: Partial<Record<SyncEntity, EntitySummary>>;
}
export type IntegrationInvoiceListParams = Static<typeof IntegrationInvoiceListQuery>;
