import { Type, type Static } from 'typebox';
import { EnumList, Id, mapOptional, Name, Nullable, Text, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

export const SUPPLIER_STATUSES = ['active', 'inactive'] as const;

const CountryCode = Type.String({
  pattern: '^[A-Za-z]{2}$',
  description: 'ISO 3166-1 alpha-2 country code; stored and answered in capitals',
});

const supplierFields = {
  name: Name('Supplier (legal) name, 1-255 characters'),
  supplier_type_id: Nullable(Id('An active supplier type of the company (GET /supplier-types)')),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')], {
    description: 'active (default) or inactive',
  }),
  company_number: Text('Company registration number', 50),
  vat_number: Text('VAT number', 50),
  email: Nullable(Type.String({ format: 'email', maxLength: 255, description: 'Invoicing / contact e-mail address' })),
  phone: Nullable(
    Type.String({
      pattern: '^\\+?[0-9 ()./-]{3,40}$',
      maxLength: 40,
      description: 'Phone number, digits and + ( ) . / -',
    }),
  ),
  address_street: Text('Street address', 255),
  address_city: Text('City', 100),
  address_zip: Text('Postal code', 20),
  address_country_code: Nullable(CountryCode),
  iban: Text(
    'IBAN the supplier is paid to; spaces allowed on input, answered compact in capitals; checksum verified',
    42,
  ),
  payment_term_days: Nullable(Type.Integer({ minimum: 0, maximum: 365, description: 'Payment term in days, 0-365' })),
};

export const Supplier = Type.Object(
  {
    id: Type.Integer(),
    ...supplierFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Supplier' },
);
export type SupplierRecord = Static<typeof Supplier>;

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills status.
export const SupplierCreate = Type.Object(
  { ...mapOptional(supplierFields), name: supplierFields.name },
  { additionalProperties: false, title: 'SupplierCreate' },
);
export type SupplierCreateBody = Static<typeof SupplierCreate>;
export const SupplierUpdate = Type.Object(mapOptional(supplierFields), {
  additionalProperties: false,
  title: 'SupplierUpdate',
});
export type SupplierUpdateBody = Static<typeof SupplierUpdate>;

// Suppliers are in the spec's list of cursor-mode resources.
export const SUPPLIER_LIST_OPTIONS: ListOptions = {
  sortable: { id: 's.id', name: 's.name', created_at: 's.created_at', updated_at: 's.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const SUPPLIER_FILTERS = ['status', 'supplier_type_id', 'q'] as const;
export const SupplierListQuery = listQuery(
  {
    status: Type.Optional(EnumList(SUPPLIER_STATUSES, 'Status filter')),
    supplier_type_id: Type.Optional(Id('Suppliers of this supplier type')),
    q: Type.Optional(
      Type.String({
        maxLength: 255,
        description: 'Name, company number, VAT number or e-mail contains (case-insensitive)',
      }),
    ),
  },
  SUPPLIER_LIST_OPTIONS,
);
export type SupplierListParams = Static<typeof SupplierListQuery>;
