import { Type, type Static } from 'typebox';
import { customFieldFilterSchema } from '../custom-fields/index.ts';
import { Contact } from '../contacts/index.ts';
import {
  CustomFields,
  EnumList,
  FlagIn,
  FlagOut,
  Id,
  IdList,
  mapOptional,
  Name,
  Nullable,
  Text,
  Timestamp,
  Literals,
} from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const CLIENT_STATUSES = ['active', 'inactive', 'prospect'] as const;
/** How many contacts a client read inlines before it sets contacts_truncated. */
export const CONTACTS_INLINE_CAP = 50;

const Status = Literals(CLIENT_STATUSES, { description: 'active (default), inactive or prospect' });
const CountryCode = Type.String({ pattern: '^[A-Za-z]{2,3}$', description: 'Short country code; stored lowercase' });

const clientFields = {
  name: Name('Client name, 1-255 characters'),
  status: Status,
  locale_code: Text('Locale, e.g. en', 16),
  reg_code: Text('Registry code'),
  vat_code: Text('VAT number'),
  address_street: Text('Street address'),
  address_city: Text('City'),
  address_state: Text('State or region'),
  address_zip: Text('Postal code', 32),
  address_country_code: Nullable(CountryCode),
  default_person_id: Nullable(Id('Responsible person id')),
  ext_client_id: Text('Id in an external system'),
  client_initials: Nullable(Type.String({ maxLength: 5, description: 'Initials, at most 5 characters' })),
  parent_id: Nullable(Id('Parent client id')),
  endpoint_id: Text(
    'Electronic address (EN 16931 BT-49), e.g. a Peppol participant id without its scheme; sent and cleared together with endpoint_scheme',
    100,
  ),
  endpoint_scheme: Text(
    "EAS code list scheme of endpoint_id (e.g. 0088 GLN, 0192 NO, 0208 BE, 9930 DE VAT); with the seller's, UBL claims Peppol BIS 3",
    16,
  ),
};

/** The lean client: what webhooks deliver (no nested contacts). */
export const ClientLean = Type.Object(
  {
    id: Type.Integer(),
    ...clientFields,
    type: Type.String({ description: 'client; workflow-template rows have type plan' }),
    has_monitor: FlagOut('1 when the client has a monitor'),
    timing_required: FlagOut('1 when time entries on this client need timing'),
    topic_required: FlagOut('1 when tasks of this client need a topic'),
    custom_fields: CustomFields,
    groups: Type.Array(Type.Integer(), { description: 'Client-group ids' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ClientLean' },
);

export const Client = Type.Object(
  {
    ...ClientLean.properties,
    contacts: Type.Array(Contact, { description: `Contacts, inlined (at most ${CONTACTS_INLINE_CAP})` }),
    contacts_truncated: Type.Boolean({ description: 'true when the inlined contact list was capped' }),
  },
  { title: 'Client' },
);
export type ClientRecord = Static<typeof Client>;

const writable = {
  ...clientFields,
  timing_required: FlagIn('0/1 or boolean'),
  topic_required: FlagIn('0/1 or boolean'),
  groups: IdList('Client-group ids; replaces the whole list'),
  custom_fields: CustomFields,
  fields: CustomFields,
};

export const ClientCreate = Type.Object(
  { ...mapOptional(writable), name: writable.name },
  { additionalProperties: false, title: 'ClientCreate' },
);
export type ClientCreateBody = Static<typeof ClientCreate>;

export const ClientUpdate = Type.Object(mapOptional(writable), { additionalProperties: false, title: 'ClientUpdate' });
export type ClientUpdateBody = Static<typeof ClientUpdate>;

export const CLIENT_LIST_OPTIONS = {
  sortable: { id: 'c.id', name: 'c.name', created_at: 'c.created_at', updated_at: 'c.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const CLIENT_FILTERS = ['status', 'name', 'reg_code', 'ext_client_id', 'q', 'default_person_id'] as const;
// custom_fields[<name>]=<value> filters (issue 12) ride on patternProperties next to the named filters.
export const ClientListQuery = {
  ...listQuery(
    {
      status: Type.Optional(EnumList(CLIENT_STATUSES, 'Status filter')),
      name: Type.Optional(Type.String({ maxLength: 255, description: 'Exact name' })),
      reg_code: Type.Optional(Type.String({ maxLength: 255 })),
      ext_client_id: Type.Optional(Type.String({ maxLength: 255 })),
      q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
      default_person_id: Type.Optional(Id('Responsible person id')),
    },
    CLIENT_LIST_OPTIONS,
  ),
  ...customFieldFilterSchema,
};
export type ClientListParams = Static<typeof ClientListQuery>;
