import { Type, type Static } from 'typebox';
import { DateOnly, EnumList, Id, Literals, mapOptional, Nullable, Text, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const INVOICE_STATUSES = ['draft', 'created', 'sent', 'paid', 'annulled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_TYPES = ['invoice', 'credit_note'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
const DocumentType = Literals(INVOICE_TYPES, {
  description: 'invoice, or credit_note: issued when a finalized invoice is annulled, crediting it in full',
});
/** How many rows an invoice read inlines before it sets rows_truncated; also the most rows POST /invoices takes. */
export const ROWS_INLINE_CAP = 200;

const Money = (description: string) => Type.Number({ description });
const Status = Type.Union(
  [
    Type.Literal('draft'),
    Type.Literal('created'),
    Type.Literal('sent'),
    Type.Literal('paid'),
    Type.Literal('annulled'),
  ],
  { description: 'draft, created, sent, paid or annulled' },
);
/** The spec puts due_date among the date-times: answered as midnight UTC of the due day; a date is accepted too. */
const DueDateIn = Type.Union([DateOnly('Due day (YYYY-MM-DD)'), Timestamp('Due day: the date part as written')], {
  description: 'Due day: YYYY-MM-DD, or a date-time whose date part (as written) names the day',
});
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. EUR' });
const Locale = Type.String({ minLength: 2, maxLength: 16, pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$' });

export const InvoiceRow = Type.Object(
  {
    id: Type.Integer(),
    invoice_id: Type.Integer(),
    credited_row_id: Nullable(
      Type.Integer({ description: "On a credit note's row: the row of the credited invoice it credits" }),
    ),
    description: Nullable(Type.String()),
    quantity: Type.Number(),
    unit: Nullable(Type.String()),
    net_price: Money('Unit price before tax'),
    net_sum: Money('quantity × net_price − discount, rounded to the currency minor unit'),
    discount_rate: Type.Number({ description: 'Discount percent, 0-100' }),
    person_id: Nullable(Type.Integer()),
    completed_at: Nullable(Timestamp('When the work was done')),
    period_start: Nullable(DateOnly('First day of the service period (BG-26); set together with period_end')),
    period_end: Nullable(DateOnly('Last day of the service period (BG-26), inclusive')),
    tax_id: Nullable(Type.Integer()),
    tax_rate: Nullable(Type.Number({ description: 'Fraction read from the tax record (0.22 is 22 %)' })),
    tax_name: Nullable(Type.String()),
    tax_sum: Money('net_sum × tax_rate, rounded'),
    product_id: Nullable(Type.Integer()),
    article_id: Nullable(Type.Integer()),
    resource_id: Nullable(Type.Integer()),
    billing_project_id: Nullable(Type.Integer()),
    ext_variable: Nullable(Type.String()),
    original_client_id: Nullable(Type.Integer()),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC); the row ETag'),
  },
  { title: 'InvoiceRow' },
);
export type InvoiceRowRecord = Static<typeof InvoiceRow>;

export const Invoice = Type.Object(
  {
    id: Type.Integer(),
    type: DocumentType,
    credited_invoice_id: Nullable(Type.Integer({ description: 'On a credit note: the invoice it credits' })),
    client_id: Type.Integer(),
    contract_id: Nullable(Type.Integer()),
    seller_id: Nullable(Type.Integer({ description: 'Invoice seller the seller_* fields were taken from' })),
    status: Status,
    invoice_number: Nullable(Type.String({ description: 'Assigned at finalization; null on drafts' })),
    invoice_date: DateOnly('Invoice date'),
    due_date: Timestamp('Due day, as midnight UTC of that day'),
    net_sum: Money('Sum of the rows net_sum'),
    tax_sum: Money('Sum of the rows tax_sum'),
    total_sum: Money('net_sum + tax_sum'),
    paid_sum: Money('Amount recorded as paid'),
    currency: Type.String(),
    client_name: Type.String(),
    client_reg_code: Nullable(Type.String()),
    client_vat_code: Nullable(Type.String()),
    client_contact: Nullable(Type.String()),
    seller_name: Nullable(Type.String()),
    seller_reg_code: Nullable(Type.String()),
    seller_vat_code: Nullable(Type.String()),
    seller_address: Nullable(Type.String()),
    seller_contact: Nullable(Type.String()),
    locale_code: Type.String(),
    comments: Nullable(Type.String()),
    reference_number: Nullable(Type.String()),
    period_label: Nullable(Type.String()),
    exported_at: Nullable(Timestamp('Last document export')),
    sent_at: Nullable(Timestamp('When it was sent')),
    paid_at: Nullable(Timestamp('When it was marked paid')),
    send_error: Nullable(
      Type.String({ description: "Why the last send's mail never went out; null once a later send goes out" }),
    ),
    send_failed_at: Nullable(Timestamp('When the last failed send gave up; null once a later send goes out')),
    rows: Type.Array(InvoiceRow, { description: `Up to ${ROWS_INLINE_CAP} rows, oldest first` }),
    rows_truncated: Type.Boolean(),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Invoice' },
);
export type InvoiceRecord = Static<typeof Invoice>;

/** The writable row fields; tax_rate, tax_name, tax_sum and net_sum are accepted and ignored (row rules 1-3). */
const rowFields = {
  description: Text('Row text; defaults to the product name', 2000),
  quantity: Type.Number({ description: 'Quantity, 0 or more, at most 4 decimals (default 1)' }),
  unit: Text('Unit; defaults to the product unit', 64),
  net_price: Type.Number({ description: 'Unit price, at most 4 decimals; defaults to the product price' }),
  discount_rate: Type.Number({ description: 'Discount percent 0-100 (default 0)' }),
  person_id: Nullable(Id('Person who did the work')),
  completed_at: Nullable(Timestamp('When the work was done')),
  period_start: Nullable(
    DateOnly('First day of the service period (BG-26); with period_end or neither (400, reason DATE_RANGE_INCOMPLETE)'),
  ),
  period_end: Nullable(
    DateOnly(
      'Last day of the service period (BG-26), inclusive; not before period_start (400, reason INVALID_DATE_RANGE)',
    ),
  ),
  tax_id: Nullable(Id("The company's tax; it alone decides the rate and name (none: no tax)")),
  product_id: Nullable(Id('Product; fills the omitted net_price, description and unit')),
  article_id: Nullable(Id('Article id in an accounting system')),
  resource_id: Nullable(Id('Resource id in an accounting system')),
  billing_project_id: Nullable(Id('Billing project id')),
  ext_variable: Text('External variable', 255),
  original_client_id: Nullable(Id('Client the row was originally billed to')),
  tax_rate: Nullable(Type.Number({ description: 'Ignored: the rate comes from tax_id' })),
  tax_name: Nullable(Type.String({ maxLength: 255, description: 'Ignored: the name comes from tax_id' })),
  tax_sum: Nullable(Type.Number({ description: 'Ignored: derived' })),
  net_sum: Nullable(Type.Number({ description: 'Ignored: derived' })),
};
export const InvoiceRowCreate = Type.Object(mapOptional(rowFields), {
  additionalProperties: false,
  title: 'InvoiceRowCreate',
});
export type InvoiceRowInput = Static<typeof InvoiceRowCreate>;
export const InvoiceRowUpdate = Type.Object(mapOptional(rowFields), {
  additionalProperties: false,
  title: 'InvoiceRowUpdate',
});

export const InvoiceCreate = Type.Object(
  {
    client_id: Id('Client billed'),
    contract_id: Type.Optional(Nullable(Id('Contract of that client'))),
    seller_id: Type.Optional(Nullable(Id('Invoice seller; default: billing settings default_seller_id'))),
    invoice_date: Type.Optional(DateOnly('Default: today in the company timezone')),
    due_date: Type.Optional(DueDateIn),
    currency: Type.Optional(Currency),
    locale_code: Type.Optional(Locale),
    comments: Type.Optional(Text('Comments printed on the invoice', 10000)),
    reference_number: Type.Optional(Text('Payment reference', 64)),
    period_label: Type.Optional(Text('Billed period, e.g. 2026-11', 255)),
    rows: Type.Optional(Type.Array(InvoiceRowCreate, { maxItems: ROWS_INLINE_CAP })),
  },
  { additionalProperties: false, title: 'InvoiceCreate' },
);
export type InvoiceCreateBody = Static<typeof InvoiceCreate>;

export const CREDIT_ITEMS_MAX = 1000;

/** POST /invoices/{id}/credit-notes: which rows, and how much of each (decision 0064). */
export const CreditNoteCreate = Type.Object(
  {
    rows: Type.Array(
      Type.Object(
        {
          row_id: Id('A row of the invoice'),
          quantity: Type.Optional(
            Type.Number({
              description: "A quantity of the row (more than 0, at most the row's), at its price and discount",
            }),
          ),
          net_amount: Type.Optional(
            Type.Number({ description: "An amount of the row's net, with its sign, at most what is left to credit" }),
          ),
        },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        maxItems: CREDIT_ITEMS_MAX,
        description: 'Each row at most once; neither quantity nor net_amount credits what is left of the row',
      },
    ),
  },
  { additionalProperties: false, title: 'CreditNoteCreate' },
);
export type CreditNoteCreateBody = Static<typeof CreditNoteCreate>;

/** InvoiceUpdate: the only header fields PATCH reaches. */
export const InvoiceUpdate = Type.Object(
  {
    status: Type.Optional(Status),
    invoice_date: Type.Optional(DateOnly('Invoice date')),
    due_date: Type.Optional(DueDateIn),
    reference_number: Type.Optional(Text('Payment reference', 64)),
    comments: Type.Optional(Text('Comments printed on the invoice', 10000)),
    locale_code: Type.Optional(Locale),
  },
  { additionalProperties: false, title: 'InvoiceUpdate' },
);
export type InvoiceUpdateBody = Static<typeof InvoiceUpdate>;
export const HEADER_FIELDS = ['invoice_date', 'due_date', 'reference_number', 'comments', 'locale_code'] as const;

export const INVOICE_LIST_OPTIONS = {
  sortable: {
    id: 'i.id',
    invoice_date: 'i.invoice_date',
    due_date: 'i.due_date',
    created_at: 'i.created_at',
    updated_at: 'i.updated_at',
  },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const INVOICE_FILTERS = ['status', 'type', 'client_id', 'invoice_date_from', 'invoice_date_to'] as const;
export const InvoiceListQuery = listQuery(
  {
    status: Type.Optional(EnumList(INVOICE_STATUSES, 'Status filter')),
    type: Type.Optional(Literals(INVOICE_TYPES, { description: 'invoice or credit_note; both when absent' })),
    client_id: Type.Optional(Id('Client filter')),
    invoice_date_from: Type.Optional(DateOnly('Invoice date on or after (YYYY-MM-DD)')),
    invoice_date_to: Type.Optional(DateOnly('Invoice date on or before (YYYY-MM-DD)')),
  },
  INVOICE_LIST_OPTIONS,
);
export type InvoiceListParams = Static<typeof InvoiceListQuery>;

export const ROW_LIST_OPTIONS = { sortable: { id: 'r.id' }, defaultSort: 'id', cursor: false, defaultLimit: 50 };
export const InvoiceRowListQuery = listQuery({}, ROW_LIST_OPTIONS);
export type InvoiceRowListParams = Static<typeof InvoiceRowListQuery>;
