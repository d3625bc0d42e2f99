import { Type, type Static } from 'typebox';
import { EnumList, MoneyOut, Name, Timestamp } from '../../platform/fields.ts';
import type { MoneyFields } from '../../platform/http.ts';
import { listQuery } from '../../platform/lists.ts';

export const TAX_STATUSES = ['active', 'inactive'] as const;

/** The rate (sent as rate or percent) is the tax's money: admin to write it, null to other keys (decision 0049). */
export const TAX_MONEY: MoneyFields = { write: ['rate', 'percent'], read: ['rate', 'percent'] };

const Status = Type.Union([Type.Literal('active'), Type.Literal('inactive')], {
  description: 'active (default) or inactive; an inactive tax cannot be newly assigned to a product',
});
const Rate = Type.Number({ description: 'Tax rate as a fraction, 0-1 with up to 6 decimals (22 % is 0.22)' });
const Percent = Type.Number({ description: 'The same rate as a percent, 0-100 with up to 4 decimals (22 % is 22)' });

export const Tax = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    rate: MoneyOut(Rate),
    percent: MoneyOut(Percent),
    status: Status,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Tax' },
);
export type TaxRecord = Static<typeof Tax>;

const writable = {
  name: Type.Optional(Name('Tax name, e.g. VAT 22%')),
  rate: Type.Optional(Rate),
  percent: Type.Optional(Percent),
  status: Type.Optional(Status),
};

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const TaxCreate = Type.Object(
  { ...writable, name: Name('Tax name, e.g. VAT 22%') },
  {
    additionalProperties: false,
    title: 'TaxCreate',
    description: 'Send rate or percent (or both, agreeing); they are two views of one stored rate',
  },
);
export type TaxCreateBody = Static<typeof TaxCreate>;
export const TaxUpdate = Type.Object(writable, {
  additionalProperties: false,
  title: 'TaxUpdate',
  description: 'rate and percent need an admin key and If-Match',
});
export type TaxUpdateBody = Static<typeof TaxUpdate>;

export const TAX_LIST_OPTIONS = {
  sortable: { id: 't.id', name: 't.name', rate: 't.rate', created_at: 't.created_at', updated_at: 't.updated_at' },
  defaultSort: 'id',
  // Taxes are not in the spec's list of cursor-mode resources.
  cursor: false,
};
export const TAX_FILTERS = ['status', 'q'] as const;
export const TaxListQuery = listQuery(
  {
    status: Type.Optional(EnumList(TAX_STATUSES, 'Status filter')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  TAX_LIST_OPTIONS,
);
export type TaxListParams = Static<typeof TaxListQuery>;
