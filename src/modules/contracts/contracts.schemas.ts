import { Type, type Static } from 'typebox';
import { EnumList, Id, MoneyOut, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import type { MoneyFields } from '../../platform/http.ts';
import { listQuery } from '../../platform/lists.ts';
import { checkedByService } from '../../platform/validation.ts';
import { ContractRow, DateIn, RowCreate } from './contracts.row-schemas.ts';
import { ContractSettings, SettingsInput } from './contracts.settings.ts';

export { ContractRow, ContractRowPrice, RowCreate, RowPriceCreate, RowUpdate } from './contracts.row-schemas.ts';
export type { RowCreateBody, RowPriceCreateBody, RowUpdateBody, ContractRowRecord } from './contracts.row-schemas.ts';

export const CONTRACT_STATUSES = ['active', 'pending', 'finished'] as const;
export const CONTRACT_TYPES = ['contract', 'template'] as const;
/** How often the billing engine invoices a contract (decision 0020). */
export const INVOICE_PERIODS = ['month', 'quarter', 'half_year', 'year'] as const;
/** Rows inlined in a contract read before rows_truncated is set (spec Limits). */
export const ROWS_INLINE_CAP = 200;
/** Rows a create (or preview) body may carry. */
export const MAX_CREATE_ROWS = 200;
/** Clients one template apply may name (spec Limits). */
export const MAX_APPLY_CLIENTS = 200;

export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/**
 * A contract's money (decision 0049): whom it bills, how often, in what currency, with what tax treatment and time
 * rounding. Name, status, dates, invoice day and the other settings are write-tier. A key without financials is
 * answered the contract without its settings and rows (the prices).
 */
export const CONTRACT_MONEY: MoneyFields = {
  write: [
    'client_id',
    'invoice_period',
    'settings.currency',
    'settings.is_reverse_charge',
    'settings.invoice_time_rounding',
  ],
  read: ['settings', 'rows'],
};
export type ContractType = (typeof CONTRACT_TYPES)[number];

/** One of the values (a union of literals in the document; typed as the value union in code). */
const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      { description },
    ),
  );

export const Contract = Type.Object(
  {
    id: Type.Integer(),
    client_id: Nullable(Type.Integer({ description: 'The billed client; null only on templates' })),
    name: Type.String(),
    parent_id: Nullable(Type.Integer({ description: 'The template (package) this contract was made from' })),
    template_name: Nullable(Type.String({ description: "The template's name when the contract was made from it" })),
    status: literals(CONTRACT_STATUSES, 'active, pending or finished'),
    type: literals(CONTRACT_TYPES, 'contract or template'),
    date_from: Nullable(Type.String({ format: 'date', description: 'First day in force' })),
    date_until: Nullable(Type.String({ format: 'date', description: 'Last day in force; null: open-ended' })),
    invoice_period: literals(INVOICE_PERIODS, 'Billing period: month, quarter, half_year or year'),
    invoice_day: Type.Integer({ description: 'Day of the month invoices are made, 1-31 (clamped to short months)' }),
    settings: MoneyOut(ContractSettings),
    rows: Type.Array(ContractRow, {
      description: `Up to ${ROWS_INLINE_CAP} rows, oldest first; [] to a key without financials`,
    }),
    rows_truncated: Type.Boolean({ description: `true when the contract has more than ${ROWS_INLINE_CAP} rows` }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC); every row write moves it too'),
  },
  { title: 'Contract' },
);
export type ContractRecord = Static<typeof Contract>;

const schedule = {
  date_from: Type.Optional(Nullable(DateIn('First day in force (YYYY-MM-DD)'))),
  date_until: Type.Optional(Nullable(DateIn('Last day in force; a day up to today ends the contract'))),
  invoice_period: Type.Optional(literals(INVOICE_PERIODS, 'month (default), quarter, half_year or year')),
  invoice_day: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, description: 'Invoice day, 1-31 (default 1)' })),
  settings: Type.Optional(SettingsInput),
};

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const ContractCreate = Type.Object(
  {
    name: Name('Contract name, 1-255 characters'),
    client_id: Type.Optional(Nullable(Id('The billed client; required unless type is template'))),
    type: Type.Optional(literals(CONTRACT_TYPES, 'contract (default) or template')),
    status: Type.Optional(
      Type.Union([Type.Literal('active'), Type.Literal('pending')], {
        description: 'active (default: in force from date_from) or pending (on hold)',
      }),
    ),
    parent_id: Type.Optional(Nullable(Id('A template of this company this contract follows'))),
    ...schedule,
    // Each row is checked by the service, so a refused one is named by row_index (422), whatever the reason.
    rows: Type.Optional(
      Type.Array(checkedByService(RowCreate), {
        maxItems: MAX_CREATE_ROWS,
        description: `Up to ${MAX_CREATE_ROWS} rows, created with the contract or not at all`,
      }),
    ),
  },
  { additionalProperties: false, title: 'ContractCreate' },
);
export type ContractCreateBody = Static<typeof ContractCreate>;

export const ContractUpdate = Type.Object(
  {
    name: Type.Optional(Name('Contract name, 1-255 characters')),
    client_id: Type.Optional(Nullable(Id('The billed client (null only on templates)'))),
    status: Type.Optional(
      literals(CONTRACT_STATUSES, 'active → pending, finished → pending, pending → active; others 409'),
    ),
    ...schedule,
  },
  { additionalProperties: false, title: 'ContractUpdate' },
);
export type ContractUpdateBody = Static<typeof ContractUpdate>;

export const RowRejection = Type.Object(
  {
    row_index: Type.Integer({ description: 'Position of the refused row in rows[] (0-based)' }),
    code: Type.String({ description: 'Error code, e.g. INVALID_PRODUCT or VALIDATION_ERROR' }),
    message: Type.String(),
    field: Type.Optional(Type.String({ description: 'The row field at fault' })),
  },
  { title: 'ContractRowRejection' },
);
export type RowRejectionRecord = Static<typeof RowRejection>;

const {
  id: _id,
  contract_id: _c,
  prices: _p,
  created_at: _ca,
  updated_at: _ua,
  ...previewFields
} = ContractRow.properties;
export const PreviewRow = Type.Object(
  { row_index: Type.Integer({ description: 'Position in rows[]' }), ...previewFields },
  { title: 'ContractPreviewRow' },
);

export const ContractPreview = Type.Object(
  {
    would_create: Type.Boolean({ description: 'true when POST /contracts with this body would create the contract' }),
    rejections: Type.Array(RowRejection),
    rows: Type.Array(PreviewRow, { description: 'The accepted rows as they would be stored' }),
  },
  { title: 'ContractPreview' },
);

export const APPLY_MODES = ['add', 'replace', 'append'] as const;
export type ApplyMode = (typeof APPLY_MODES)[number];

export const ApplyBody = Type.Object(
  {
    mode: literals(APPLY_MODES, 'add, replace or append'),
    client_ids: Type.Array(Id('Client id'), {
      minItems: 1,
      maxItems: MAX_APPLY_CLIENTS,
      uniqueItems: true,
      description: `1-${MAX_APPLY_CLIENTS} distinct client ids`,
    }),
    start_date: Type.Optional(DateIn('First day of the new or re-dated contracts; required for add and replace')),
    dry_run: Type.Optional(Type.Boolean({ description: 'true: answer the plan and write nothing' })),
  },
  { additionalProperties: false, title: 'ContractApply' },
);
export type ApplyBodyType = Static<typeof ApplyBody>;

/** The spec writes `POST /contracts/{id}/apply?dry_run=true`; the body's dry_run says the same. */
export const ApplyQuery = Type.Object(
  {
    dry_run: Type.Optional(
      Type.Boolean({ description: 'true: answer the plan and write nothing (true here or in the body is a dry run)' }),
    ),
  },
  { additionalProperties: false },
);

export const APPLY_ACTIONS = ['created', 'redated', 'appended', 'skipped', 'error'] as const;

export const ApplyResult = Type.Object(
  {
    client_id: Type.Integer(),
    action: literals(APPLY_ACTIONS, 'What was (or, on a dry run, would be) done for this client'),
    contract_id: Nullable(Type.Integer({ description: 'The contract made, re-dated or appended to' })),
    contract_ids: Type.Optional(Type.Array(Type.Integer(), { description: 'append: every contract appended to' })),
    ended_contract_ids: Type.Optional(Type.Array(Type.Integer(), { description: 'replace: contracts ended' })),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  },
  { title: 'ContractApplyResult' },
);
export type ApplyResultRecord = Static<typeof ApplyResult>;

export const ApplyOutcome = Type.Object(
  {
    template_id: Type.Integer(),
    mode: literals(APPLY_MODES, 'The mode applied'),
    dry_run: Type.Boolean(),
    start_date: Nullable(Type.String({ format: 'date' })),
    results: Type.Array(ApplyResult, { description: 'One result per client id, in the order sent' }),
    summary: Type.Object({
      created: Type.Integer(),
      redated: Type.Integer(),
      appended: Type.Integer(),
      ended: Type.Integer(),
      skipped: Type.Integer(),
      errors: Type.Integer(),
    }),
  },
  { title: 'ContractApplyOutcome' },
);
export type ApplyOutcomeRecord = Static<typeof ApplyOutcome>;

export const CONTRACT_LIST_OPTIONS = {
  sortable: { id: 'k.id', name: 'k.name', created_at: 'k.created_at', updated_at: 'k.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const CONTRACT_FILTERS = ['status', 'type', 'client_id', 'q'] as const;
export const ContractListQuery = listQuery(
  {
    status: Type.Optional(EnumList(CONTRACT_STATUSES, 'Status filter')),
    type: Type.Optional(EnumList(CONTRACT_TYPES, 'Type filter')),
    client_id: Type.Optional(Id('Only contracts of this client')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  CONTRACT_LIST_OPTIONS,
);
export type ContractListParams = Static<typeof ContractListQuery>;

export const RowListQuery = listQuery({}, { cursor: false });
export type ContractRowListParams = Static<typeof RowListQuery>;
