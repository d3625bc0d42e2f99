import { customFieldFilterSchema } from '../custom-fields/index.ts';
import { Type, type Static } from 'typebox';
import {
  CustomFields,
  DateOnly,
  EnumList,
  Id,
  Literals,
  Name,
  Nullable,
  Text,
  Timestamp,
} from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const MEMBER_ROLES = ['member', 'admin', 'owner'] as const;
export const MEMBER_STATUSES = ['active', 'inactive', 'pending', 'limited'] as const;
/** Credits are numeric(14,2); the API keeps them well inside that range. */
export const CREDIT_LIMIT = 1e9;

const Role = Literals(MEMBER_ROLES, { description: 'member, admin or owner' });
const Status = Literals(MEMBER_STATUSES, { description: 'active, inactive, pending or limited' });
const Credit = (description: string) => Nullable(Type.Number({ description }));
const CreditIn = (description: string) =>
  Nullable(
    Type.Number({
      exclusiveMinimum: -CREDIT_LIMIT,
      exclusiveMaximum: CREDIT_LIMIT,
      description: `${description}; at most 2 decimals, |x| < 1e9; needs admin and If-Match`,
    }),
  );
const Email = Nullable(Type.String({ format: 'email', maxLength: 255, description: 'E-mail address' }));

export const Member = Type.Object(
  {
    id: Type.Integer(),
    person_id: Type.Integer({ description: "The member's person id (what other records reference)" }),
    name: Type.String({ description: 'First name' }),
    surname: Nullable(Type.String({ description: 'Surname' })),
    email: Nullable(Type.String({ description: 'E-mail address' })),
    phone: Nullable(Type.String({ description: 'Phone' })),
    role: Role,
    status: Status,
    title: Nullable(Type.String({ description: 'Job title' })),
    initials: Nullable(Type.String({ description: 'Initials' })),
    locale_code: Nullable(Type.String({ description: 'Locale, e.g. en' })),
    region_code: Nullable(Type.String({ description: 'Region code' })),
    birthday: Nullable(DateOnly('Birthday (YYYY-MM-DD)')),
    timezone: Nullable(Type.String({ description: 'IANA time zone' })),
    address_city: Nullable(Type.String({ description: 'City' })),
    address_country_code: Nullable(Type.String({ description: 'Short country code' })),
    avatar: Nullable(Type.String({ description: 'Avatar address' })),
    group_ids: Type.Array(Type.Integer(), { description: 'Member group ids' }),
    ext_user_id: Nullable(Type.String({ description: 'Id in an external system' })),
    member_type: Nullable(Type.String({ description: 'Company-defined member type' })),
    hr_lead_id: Nullable(Type.Integer({ description: "Person id of the member's HR lead" })),
    flextime_credit: Credit('Flextime credit; null without the financials scope'),
    vacation_credit: Credit('Vacation credit; null without the financials scope'),
    custom_fields: CustomFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Member' },
);
export type MemberRecord = Static<typeof Member>;

const HrLead = Nullable(Id('Person id of a member of this company'));

/** A placeholder member: no login, so no role or status choice (limited, member). */
export const MemberCreate = Type.Object(
  {
    name: Name('First name, 1-255 characters'),
    surname: Type.Optional(Text('Surname')),
    email: Type.Optional(Email),
    title: Type.Optional(Text('Job title')),
    locale_code: Type.Optional(Text('Locale, e.g. en', 16)),
    ext_user_id: Type.Optional(Text('Id in an external system')),
    member_type: Type.Optional(Text('Company-defined member type')),
    hr_lead_id: Type.Optional(HrLead),
    custom_fields: Type.Optional(CustomFields),
    fields: Type.Optional(CustomFields),
  },
  { additionalProperties: false, title: 'MemberCreate' },
);
export type MemberCreateBody = Static<typeof MemberCreate>;

/** role and status: a web session of an owner or admin only (docs/decisions/0053); API keys get MANAGEMENT_UI_ONLY. */
export const MemberUpdate = Type.Object(
  {
    name: Type.Optional(Name('First name, 1-255 characters')),
    surname: Type.Optional(Text('Surname')),
    role: Type.Optional(
      Literals(MEMBER_ROLES, {
        description:
          'Web session of an owner or admin only (API keys: MANAGEMENT_UI_ONLY); only owners make or unmake owners; the last active owner stays (LAST_OWNER)',
      }),
    ),
    status: Type.Optional(
      Literals(MEMBER_STATUSES, {
        description:
          "active or inactive, between those two only, by a web session of an owner or admin (API keys: MANAGEMENT_UI_ONLY); inactive ends the account's sessions",
      }),
    ),
    member_type: Type.Optional(Text('Company-defined member type')),
    ext_user_id: Type.Optional(Text('Id in an external system')),
    hr_lead_id: Type.Optional(HrLead),
    locale_code: Type.Optional(Text('Locale, e.g. en', 16)),
    flextime_credit: Type.Optional(CreditIn('Flextime credit')),
    vacation_credit: Type.Optional(CreditIn('Vacation credit')),
    custom_fields: Type.Optional(CustomFields),
    fields: Type.Optional(CustomFields),
  },
  { additionalProperties: false, title: 'MemberUpdate' },
);
export type MemberUpdateBody = Static<typeof MemberUpdate>;

export const MEMBER_LIST_OPTIONS = {
  sortable: { id: 'm.id', name: 'p.name', created_at: 'm.created_at', updated_at: 'm.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const MEMBER_FILTERS = ['status', 'role', 'q'] as const;
// custom_fields[<name>]=<value> filters (issue 12, decision 0028) ride on patternProperties next to the named ones.
export const MemberListQuery = {
  ...listQuery(
    {
      status: Type.Optional(EnumList(MEMBER_STATUSES, 'Status filter')),
      role: Type.Optional(EnumList(MEMBER_ROLES, 'Role filter')),
      q: Type.Optional(
        Type.String({ maxLength: 255, description: 'Name, surname or e-mail contains (case-insensitive)' }),
      ),
    },
    MEMBER_LIST_OPTIONS,
  ),
  ...customFieldFilterSchema,
};
export type MemberListParams = Static<typeof MemberListQuery>;
