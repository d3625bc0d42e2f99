import { Type, type Static } from 'typebox';
import { DateOnly, Id, mapOptional, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

const Scope = Type.Literal('tasks', { description: 'What is delegated: tasks (the only scope so far; default)' });

const delegationFields = {
  delegator_id: Id('Person whose tasks are delegated'),
  delegate_id: Id('Person who sees and works them while the delegation is active'),
  date_from: DateOnly('First day, in the company timezone (YYYY-MM-DD)'),
  date_until: DateOnly('Last day, inclusive (YYYY-MM-DD)'),
  scope: Scope,
  note: Nullable(Type.String({ maxLength: 1000, description: 'Free text, up to 1000 characters' })),
};

export const Delegation = Type.Object(
  {
    id: Type.Integer(),
    delegator_id: Type.Integer(),
    delegate_id: Type.Integer(),
    date_from: DateOnly('First day (company timezone)'),
    date_until: DateOnly('Last day, inclusive'),
    scope: Scope,
    note: Nullable(Type.String()),
    active: Type.Boolean({ description: 'true while today (company timezone) is within the range' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Delegation' },
);
export type DelegationRecord = Static<typeof Delegation>;

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills scope.
export const DelegationCreate = Type.Object(
  {
    ...mapOptional(delegationFields),
    delegator_id: delegationFields.delegator_id,
    delegate_id: delegationFields.delegate_id,
    date_from: delegationFields.date_from,
    date_until: delegationFields.date_until,
  },
  { additionalProperties: false, title: 'DelegationCreate' },
);
export type DelegationCreateBody = Static<typeof DelegationCreate>;
export const DelegationUpdate = Type.Object(mapOptional(delegationFields), {
  additionalProperties: false,
  title: 'DelegationUpdate',
});
export type DelegationUpdateBody = Static<typeof DelegationUpdate>;

export const DELEGATION_LIST_OPTIONS: ListOptions = {
  sortable: { id: 'dg.id', date_from: 'dg.date_from', created_at: 'dg.created_at', updated_at: 'dg.updated_at' },
  defaultSort: 'id',
};
export const DELEGATION_FILTERS = ['delegator_id', 'delegate_id', 'active'] as const;
export const DelegationListQuery = listQuery(
  {
    delegator_id: Type.Optional(Id('Delegations of this person')),
    delegate_id: Type.Optional(Id('Delegations to this person')),
    active: Type.Optional(Type.Boolean({ description: 'true: active today; false: past or future' })),
  },
  DELEGATION_LIST_OPTIONS,
);
export type DelegationListParams = Static<typeof DelegationListQuery>;
