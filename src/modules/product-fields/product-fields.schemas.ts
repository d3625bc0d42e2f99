import { Type, type Static, type TLiteral } from 'typebox';
import { EnumList, mapOptional, Name, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

export const PRODUCT_FIELD_KINDS = ['article', 'resource', 'cost_center', 'billing_project'] as const;
export type ProductFieldKind = (typeof PRODUCT_FIELD_KINDS)[number];
export const PRODUCT_FIELD_STATUSES = ['active', 'inactive'] as const;

/** The system entries every company has (also backfilled by migration 0091); read-only through the API. */
export const SYSTEM_PRODUCT_FIELDS: ReadonlyArray<{ kind: ProductFieldKind; code: string; name: string }> = [
  { kind: 'cost_center', code: 'GENERAL', name: 'General' },
  { kind: 'billing_project', code: 'INTERNAL', name: 'Internal work' },
];

// Typed as one literal of the kinds: a union over a mapped array is `never` to Static (it reads tuples only),
// which hid ProductFieldRecord's kind from the compiler; the schema is the same.
const Kind = Type.Union(PRODUCT_FIELD_KINDS.map((k) => Type.Literal(k)) as [TLiteral<ProductFieldKind>], {
  description:
    'Which lookup the entry belongs to: article (article_id), resource (resource_id), billing_project ' +
    '(billing_project_id) of products, contract rows and invoice rows; cost_center (a lookup for accounting exports)',
});

const editableFields = {
  code: Type.String({
    minLength: 1,
    maxLength: 50,
    pattern: '^[A-Za-z0-9][A-Za-z0-9 ._/-]*$',
    description: 'Code as the accounting system knows it, 1-50 letters, digits, space . _ / -; unique per kind',
  }),
  name: Name('Display name, 1-255 characters'),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')], {
    description: 'active (default), or inactive: kept where already used, but no longer accepted in new writes',
  }),
};

export const ProductField = Type.Object(
  {
    id: Type.Integer(),
    kind: Kind,
    ...editableFields,
    is_system: Type.Boolean({ description: 'A system entry: read-only (403 PRODUCT_FIELD_READ_ONLY)' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ProductField' },
);
export type ProductFieldRecord = Static<typeof ProductField>;

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills status.
export const ProductFieldCreate = Type.Object(
  { kind: Kind, code: editableFields.code, name: editableFields.name, status: Type.Optional(editableFields.status) },
  { additionalProperties: false, title: 'ProductFieldCreate' },
);
export type ProductFieldCreateBody = Static<typeof ProductFieldCreate>;
// kind is fixed at creation: the rows that reference an entry do so through the column of its kind.
export const ProductFieldUpdate = Type.Object(mapOptional(editableFields), {
  additionalProperties: false,
  title: 'ProductFieldUpdate',
});
export type ProductFieldUpdateBody = Static<typeof ProductFieldUpdate>;

// Offset-only: product fields are not in the spec's list of cursor-mode resources.
export const PRODUCT_FIELD_LIST_OPTIONS: ListOptions = {
  sortable: {
    id: 'pf.id',
    code: 'pf.code',
    name: 'pf.name',
    created_at: 'pf.created_at',
    updated_at: 'pf.updated_at',
  },
  defaultSort: 'id',
  cursor: false,
};
export const PRODUCT_FIELD_FILTERS = ['kind', 'status', 'is_system', 'q'] as const;
export const ProductFieldListQuery = listQuery(
  {
    kind: Type.Optional(EnumList(PRODUCT_FIELD_KINDS, 'Kind filter')),
    status: Type.Optional(EnumList(PRODUCT_FIELD_STATUSES, 'Status filter')),
    is_system: Type.Optional(Type.Boolean({ description: 'true or false' })),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Code or name contains (case-insensitive)' })),
  },
  PRODUCT_FIELD_LIST_OPTIONS,
);
export type ProductFieldListParams = Static<typeof ProductFieldListQuery>;
