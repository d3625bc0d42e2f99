import { Type } from 'typebox';
import { DateOnly, Id, Nullable } from '../../platform/fields.ts';
import { Invoice } from '../invoices/index.ts';

export const BillBody = Type.Object(
  {
    date_from: Type.Optional(
      DateOnly('First day billed; sent with date_to, at most 366 days before it. Default: each contract’s due period'),
    ),
    date_to: Type.Optional(DateOnly('Last day billed; sent with date_from')),
  },
  { additionalProperties: false, title: 'BillClientBody' },
);

const Skip = Type.Object({
  reason: Type.Union([Type.Literal('nothing_to_bill'), Type.Literal('no_price')]),
  message: Type.String(),
  count: Type.Optional(Type.Integer()),
  time_entry_ids: Type.Optional(Type.Array(Type.Integer(), { description: 'Up to 100 of them' })),
});

const ContractOutcome = Type.Object({
  contract_id: Type.Integer(),
  period_from: DateOnly('First day of the billed period'),
  period_until: DateOnly('Last day of the billed period'),
  invoice_id: Nullable(Type.Integer({ description: 'The draft created; null when nothing was billed' })),
  time_entries: Type.Integer({ description: 'Time entries billed' }),
  fees: Type.Integer({ description: 'Periodic fee rows billed' }),
  skipped: Type.Array(Skip, { description: 'What was not billed, and why' }),
});

export const BillResult = Type.Object(
  {
    data: Type.Object({
      invoices: Type.Array(Invoice, { description: 'Draft invoices created by this run' }),
      contracts: Type.Array(ContractOutcome, { description: 'Per active contract: what was billed or skipped' }),
    }),
  },
  { title: 'BillClientResult' },
);

export const MissedQuery = Type.Object(
  {
    client_id: Type.Optional(Id('Only this client')),
    date_from: Type.Optional(
      DateOnly('Window start; default 1 January of the year of date_to, else of the current year (company time zone)'),
    ),
    date_to: Type.Optional(
      DateOnly('Window end; default 31 December of the year of date_from, else of the current year. At most 366 days'),
    ),
  },
  { additionalProperties: false },
);

const MissedItem = Type.Object({
  client_id: Type.Integer(),
  client_name: Nullable(Type.String()),
  contract_id: Type.Integer(),
  contract_name: Nullable(Type.String()),
  period_from: DateOnly('First day of the contract period'),
  period_until: DateOnly('Last day of the contract period'),
  currency: Type.String(),
  unbilled_hours: Type.Number({ description: 'Billable hours not invoiced (after rounding rules)' }),
  time_entries: Type.Integer(),
  unpriced_entries: Type.Integer({ description: 'Entries with no price effective on their day (not in any value)' }),
  recoverable_value: Type.Number({ description: 'Net value of billable time not invoiced' }),
  fixed_fee_value: Type.Number({ description: 'Net value of periodic fees not invoiced' }),
});

export const MissedReport = Type.Object(
  {
    items: Type.Array(MissedItem),
    failed_clients: Type.Array(
      Type.Object({ client_id: Type.Integer(), client_name: Nullable(Type.String()), message: Type.String() }),
    ),
    summary: Type.Object({
      date_from: DateOnly('Window start'),
      date_to: DateOnly('Window end'),
      currency: Type.String({ description: 'The company currency' }),
      items: Type.Integer(),
      recoverable_value: Type.Number(),
      fixed_fee_value: Type.Number(),
      items_unpriced: Type.Integer({ description: 'Items with work that has no effective price' }),
    }),
  },
  { title: 'MissedBillingReport' },
);
