import { Type, type Static } from 'typebox';
import { Name } from '../../platform/fields.ts';

export const Timezone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone name, e.g. Europe/Tallinn',
});
export const Features = Type.Object(
  {
    billing: Type.Optional(Type.Boolean()),
    analytics: Type.Optional(Type.Boolean()),
    drive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const CompanyCreate = Type.Object(
  {
    name: Name('Company name'),
    timezone: Type.Optional(Timezone),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, default EUR' })),
    owner: Type.Optional(
      Type.Object(
        {
          name: Name('Owner first name'),
          surname: Type.Optional(Type.String({ maxLength: 255 })),
          email: Type.Optional(Type.String({ format: 'email', maxLength: 255 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type CompanyCreateBody = Static<typeof CompanyCreate>;

export const CompanyUpdate = Type.Object(
  {
    subscription_status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('lapsed')])),
    plan: Type.Optional(Type.Union([Type.Literal('pro'), Type.Literal('basic')])),
    timezone: Type.Optional(Timezone),
    features: Type.Optional(Features),
  },
  { additionalProperties: false },
);
export type CompanyUpdateBody = Static<typeof CompanyUpdate>;

export const Company = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  timezone: Type.String(),
  currency: Type.String(),
  subscription_status: Type.String(),
  plan: Type.String(),
  features: Type.Object({ billing: Type.Boolean(), analytics: Type.Boolean(), drive: Type.Boolean() }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const MemberAdd = Type.Object(
  {
    name: Name('First name'),
    surname: Type.Optional(Type.String({ maxLength: 255 })),
    email: Type.String({ format: 'email', maxLength: 255 }),
    role: Type.Union([Type.Literal('member'), Type.Literal('admin'), Type.Literal('owner')]),
    status: Type.Union([
      Type.Literal('active'),
      Type.Literal('inactive'),
      Type.Literal('pending'),
      Type.Literal('limited'),
    ]),
  },
  { additionalProperties: false },
);
export type MemberAddBody = Static<typeof MemberAdd>;

export const CompanyCreated = Type.Object({
  company_id: Type.String(),
  owner: Type.Object({
    person_id: Type.Integer(),
    member_id: Type.Integer(),
    name: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
  }),
  api_key: Type.Object({ id: Type.Integer(), full_key: Type.String(), scopes: Type.Array(Type.String()) }),
});
export type CompanyCreatedRecord = Static<typeof CompanyCreated>;
