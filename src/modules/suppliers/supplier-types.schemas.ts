import { Type, type Static } from 'typebox';
import { EnumList, mapOptional, Name, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

export const SUPPLIER_TYPE_STATUSES = ['active', 'inactive'] as const;

/** What every company starts with (also backfilled by migration 0090 for companies that existed before). */
export const SUPPLIER_TYPE_DEFAULTS = [
  'Subcontractor',
  'Goods',
  'Services',
  'Software and subscriptions',
  'Office and facilities',
] as const;

const typeFields = {
  name: Name('Supplier type name, 1-255 characters'),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')], {
    description: 'active, or inactive (kept on the suppliers that have it, but no longer assignable)',
  }),
};

export const SupplierType = Type.Object(
  {
    id: Type.Integer(),
    ...typeFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'SupplierType' },
);
export type SupplierTypeRecord = Static<typeof SupplierType>;

// The list is seeded per company: types are renamed or switched off, never created or deleted through the API.
export const SupplierTypeUpdate = Type.Object(mapOptional(typeFields), {
  additionalProperties: false,
  title: 'SupplierTypeUpdate',
});
export type SupplierTypeUpdateBody = Static<typeof SupplierTypeUpdate>;

// Offset-only: supplier types are not in the spec's list of cursor-mode resources.
export const SUPPLIER_TYPE_LIST_OPTIONS: ListOptions = {
  sortable: { id: 'st.id', name: 'st.name', created_at: 'st.created_at', updated_at: 'st.updated_at' },
  defaultSort: 'id',
  cursor: false,
};
export const SUPPLIER_TYPE_FILTERS = ['status', 'q'] as const;
export const SupplierTypeListQuery = listQuery(
  {
    status: Type.Optional(EnumList(SUPPLIER_TYPE_STATUSES, 'Status filter')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  SUPPLIER_TYPE_LIST_OPTIONS,
);
export type SupplierTypeListParams = Static<typeof SupplierTypeListQuery>;
