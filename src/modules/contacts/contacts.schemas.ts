import { customFieldFilterSchema } from '../custom-fields/index.ts';
import { Type, type Static } from 'typebox';
import {
  CustomFields,
  DateOnly,
  FlagIn,
  FlagOut,
  Id,
  mapOptional,
  Name,
  Nullable,
  Text,
  Timestamp,
} from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

const contactFields = {
  name: Name('First name, 1-255 characters'),
  surname: Text('Surname'),
  email: Nullable(Type.String({ format: 'email', maxLength: 255, description: 'E-mail address' })),
  job_title: Text('Job title'),
  mobile_phone: Text('Mobile phone', 64),
  work_phone: Text('Work phone', 64),
  locale_code: Text('Locale, e.g. en', 16),
  birthday: Nullable(DateOnly('Birthday (YYYY-MM-DD)')),
  ext_contact_id: Text('Id in an external system'),
};

export const Contact = Type.Object(
  {
    id: Type.Integer(),
    client_id: Type.Integer(),
    person_id: Nullable(Type.Integer({ description: 'Linked person, if any' })),
    is_primary: FlagOut("1 for the client's primary contact"),
    ...contactFields,
    custom_fields: CustomFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Contact' },
);
export type ContactRecord = Static<typeof Contact>;

const writable = {
  ...contactFields,
  client_id: Id('Client the contact belongs to'),
  is_primary: FlagIn('0/1 or boolean; one primary contact per client'),
  custom_fields: CustomFields,
  fields: CustomFields,
};

export const ContactCreate = Type.Object(
  { ...mapOptional(writable), client_id: writable.client_id, name: writable.name },
  { additionalProperties: false, title: 'ContactCreate' },
);
export type ContactCreateBody = Static<typeof ContactCreate>;
export const ContactUpdate = Type.Object(mapOptional(writable), {
  additionalProperties: false,
  title: 'ContactUpdate',
});
export type ContactUpdateBody = Static<typeof ContactUpdate>;

export const CONTACT_LIST_OPTIONS = {
  sortable: { id: 'ct.id', name: 'ct.name', created_at: 'ct.created_at', updated_at: 'ct.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const CONTACT_FILTERS = ['client_id', 'email', 'q'] as const;
// custom_fields[<name>]=<value> filters (issue 12, decision 0028) ride on patternProperties next to the named ones.
export const ContactListQuery = {
  ...listQuery(
    {
      client_id: Type.Optional(Id('Client id')),
      email: Type.Optional(Type.String({ maxLength: 255, description: 'Exact e-mail (case-insensitive)' })),
      q: Type.Optional(Type.String({ maxLength: 255, description: 'Name, surname or e-mail contains' })),
    },
    CONTACT_LIST_OPTIONS,
  ),
  ...customFieldFilterSchema,
};
export type ContactListParams = Static<typeof ContactListQuery>;
