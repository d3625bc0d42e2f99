import { Type, type Static } from 'typebox';
import { DateOnly, EnumList, Id, mapOptional, MoneyOut, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import type { MoneyFields } from '../../platform/http.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

export const BUDGET_STATUSES = ['active', 'closed'] as const;

const Status = Type.Union([Type.Literal('active'), Type.Literal('closed')], {
  description: 'active (default) or closed; needs admin and If-Match to change',
});
const BudgetNetSum = Type.Number({
  description: 'The budget, net of tax, in the company currency; 0 or more, 2 decimals; needs admin and If-Match',
});
const WarningRate = Type.Number({
  description:
    'A fraction 0-1 (default 0.8): warning turns true once spent_net_sum reaches budget_net_sum × warning_rate; ' +
    'needs admin and If-Match',
});

const budgetFields = {
  name: Name('Budget name, 1-255 characters'),
  client_id: Nullable(Id("Client whose invoices count; defaults to the project's client when project_id is sent")),
  project_id: Nullable(Id("Project whose billed time counts (invoice rows billing its tasks' time entries)")),
  date_from: Nullable(DateOnly('First invoice date counted (YYYY-MM-DD); null: no lower bound')),
  date_until: Nullable(DateOnly('Last invoice date counted, inclusive; null: no upper bound')),
  budget_net_sum: BudgetNetSum,
  warning_rate: WarningRate,
  status: Status,
};

export const Budget = Type.Object(
  {
    id: Type.Integer(),
    ...budgetFields,
    budget_net_sum: MoneyOut(BudgetNetSum),
    warning_rate: MoneyOut(WarningRate),
    spent_net_sum: MoneyOut(
      Type.Number({
        description:
          'Read-only: net sum of finalized (created, sent, paid) invoices in the company currency dated within the ' +
          "budget's dates, for its project, else its client, else the whole company",
      }),
    ),
    warning: MoneyOut(Type.Boolean({ description: 'Read-only: spent_net_sum >= budget_net_sum × warning_rate' })),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Budget' },
);
export type BudgetRecord = Static<typeof Budget>;

/** The spec's budget fields: admin (financials) and If-Match to change. */
export const ADMIN_FIELDS = ['budget_net_sum', 'warning_rate', 'status'] as const;
/** A key without financials may rename or re-scope a budget, not read its sums (decision 0049). */
export const BUDGET_MONEY: MoneyFields = {
  write: ADMIN_FIELDS,
  read: ['budget_net_sum', 'warning_rate', 'spent_net_sum', 'warning'],
};

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const BudgetCreate = Type.Object(
  { ...mapOptional(budgetFields), name: budgetFields.name, budget_net_sum: budgetFields.budget_net_sum },
  { additionalProperties: false, title: 'BudgetCreate' },
);
export type BudgetCreateBody = Static<typeof BudgetCreate>;
export const BudgetUpdate = Type.Object(mapOptional(budgetFields), {
  additionalProperties: false,
  title: 'BudgetUpdate',
  description: 'budget_net_sum, warning_rate and status need an admin key and If-Match',
});
export type BudgetUpdateBody = Static<typeof BudgetUpdate>;

// Budgets are not in the spec's list of cursor-mode resources.
export const BUDGET_LIST_OPTIONS: ListOptions = {
  cursor: false,
  sortable: {
    id: 'b.id',
    name: 'b.name',
    budget_net_sum: 'b.budget_net_sum',
    created_at: 'b.created_at',
    updated_at: 'b.updated_at',
  },
  defaultSort: 'id',
};
export const BUDGET_FILTERS = ['client_id', 'project_id', 'status'] as const;
export const BudgetListQuery = listQuery(
  {
    client_id: Type.Optional(Id('Budgets of this client')),
    project_id: Type.Optional(Id('Budgets of this project')),
    status: Type.Optional(EnumList(BUDGET_STATUSES, 'Status filter')),
  },
  BUDGET_LIST_OPTIONS,
);
export type BudgetListParams = Static<typeof BudgetListQuery>;
