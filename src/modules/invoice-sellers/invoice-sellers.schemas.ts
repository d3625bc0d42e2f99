import { Type, type Static } from 'typebox';
import { EnumList, mapOptional, Name, Text, Timestamp } from '../../platform/fields.ts';
import type { MoneyFields } from '../../platform/http.ts';
import { listQuery } from '../../platform/lists.ts';

export const SELLER_STATUSES = ['active', 'archived'] as const;

const Status = Type.Union([Type.Literal('active'), Type.Literal('archived')], {
  description: 'active (default) or archived; sellers are archived, never deleted',
});
const Iban = Text('IBAN; spaces allowed on input, stored and answered compact in capitals; checksum verified', 42);

/** The seller's profile: printed on invoices, so changing it needs admin (financials). */
export const PROFILE_FIELDS = [
  'name',
  'address',
  'company_number',
  'vat_number',
  'bank_1',
  'bank_2',
  'iban_1',
  'iban_2',
  'endpoint_id',
  'endpoint_scheme',
  'phone',
  'address_city',
  'address_zip',
] as const;

/**
 * Admin writes the profile; a key without financials, which may archive a seller or change its logo, is answered
 * the seller without its address, registration and bank details (decision 0049).
 */
export const SELLER_MONEY: MoneyFields = { write: PROFILE_FIELDS, read: PROFILE_FIELDS.filter((f) => f !== 'name') };

const sellerFields = {
  name: Name('Seller (legal) name, 1-255 characters'),
  status: Status,
  address: Text('Postal address as printed on invoices', 1000),
  company_number: Text('Company registration number'),
  vat_number: Text('VAT number'),
  bank_1: Text('Name of the first bank'),
  iban_1: Iban,
  bank_2: Text('Name of the second bank'),
  iban_2: Iban,
  logo_url: Text('https URL of the logo printed on invoices', 2048),
  address_city: Text('City of the address, for e-invoices (address stays the printed line)'),
  address_zip: Text('Postal code of the address, for e-invoices', 32),
  phone: Text('Telephone of the seller, for the contact of its e-invoices (XRechnung requires one)', 64),
  endpoint_id: Text(
    'Electronic address (EN 16931 BT-34), e.g. a Peppol participant id without its scheme; sent and cleared together with endpoint_scheme',
    100,
  ),
  endpoint_scheme: Text(
    'EAS code list scheme of endpoint_id (e.g. 0088 GLN, 0192 NO, 0208 BE, 9930 DE VAT); with both set, UBL claims Peppol BIS 3',
    16,
  ),
};

export const InvoiceSeller = Type.Object(
  {
    id: Type.Integer(),
    ...sellerFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'InvoiceSeller' },
);
export type InvoiceSellerRecord = Static<typeof InvoiceSeller>;

export const InvoiceSellerCreate = Type.Object(
  { ...mapOptional(sellerFields), name: sellerFields.name },
  { additionalProperties: false, title: 'InvoiceSellerCreate' },
);
export type InvoiceSellerCreateBody = Static<typeof InvoiceSellerCreate>;
export const InvoiceSellerUpdate = Type.Object(mapOptional(sellerFields), {
  additionalProperties: false,
  title: 'InvoiceSellerUpdate',
  description: 'status and logo_url are write-tier; the profile fields need admin',
});
export type InvoiceSellerUpdateBody = Static<typeof InvoiceSellerUpdate>;

export const SELLER_LIST_OPTIONS = {
  sortable: { id: 's.id', name: 's.name', created_at: 's.created_at', updated_at: 's.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const SELLER_FILTERS = ['status', 'q'] as const;
export const InvoiceSellerListQuery = listQuery(
  {
    status: Type.Optional(EnumList(SELLER_STATUSES, 'Status filter')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  SELLER_LIST_OPTIONS,
);
export type InvoiceSellerListParams = Static<typeof InvoiceSellerListQuery>;
