import { Type, type Static } from 'typebox';
import { Id, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';
import { GRANTABLE_SCOPES } from '../../platform/scopes.ts';

/** How long a rotated key keeps working (spec Limits: key rotation grace). */
export const ROTATION_GRACE_HOURS = 24;
const MAX_ALLOWLIST = 100;

const Kind = Type.Union([Type.Literal('integration'), Type.Literal('personal')], {
  description: 'integration (company-wide, scope-only) or personal (acts as one active member)',
});
const ScopeName = Type.Union(
  [Type.Literal('read'), Type.Literal('write'), Type.Literal('admin'), Type.Literal('write:attachments')],
  { description: 'read, write, admin or write:attachments' },
);
const Scopes = Type.Array(Type.String(), {
  description: 'Granted scopes, including the tiers they imply (admin ⊃ write ⊃ read)',
});
const AllowEntry = Type.String({ minLength: 1, maxLength: 64, description: 'IPv4/IPv6 address or CIDR range' });
const Allowlist = Nullable(
  Type.Array(AllowEntry, {
    maxItems: MAX_ALLOWLIST,
    description: 'Addresses or CIDR ranges the key may be used from; null or empty: anywhere',
  }),
);

/** The masked key record: the prefix identifies a key, the secret and its hash never leave the service. */
export const ApiKey = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    key_prefix: Type.String({ description: 'First characters of the key, to recognise it' }),
    auth_type: Type.String({ description: 'How the key authenticates; api_key' }),
    kind: Kind,
    scopes: Scopes,
    person_id: Nullable(
      Type.Integer({
        description: 'Personal keys: the member the key acts as. Integration keys: the person it is attributed to',
      }),
    ),
    is_active: Type.Boolean({ description: "false once revoked, or once a rotated key's grace period has ended" }),
    last_used_at: Nullable(Timestamp('Last use, to the minute (UTC)')),
    expires_at: Nullable(Timestamp('The key stops working at this time (UTC)')),
    grace_expires_at: Nullable(Timestamp('Set when the key was rotated: it stops working at this time (UTC)')),
    ip_allowlist: Allowlist,
    created_at: Timestamp('Creation time (UTC)'),
  },
  { title: 'ApiKey' },
);
export type ApiKeyRecord = Static<typeof ApiKey>;

export const ApiKeyCreated = Type.Object(
  {
    ...ApiKey.properties,
    full_key: Type.String({ description: 'The secret key; shown only in this response' }),
  },
  { title: 'ApiKeyCreated' },
);
export type ApiKeyCreatedRecord = Static<typeof ApiKeyCreated>;

export const ApiKeyCreate = Type.Object(
  {
    name: Name('Key name, 1-255 characters'),
    kind: Type.Optional(Kind),
    scopes: Type.Optional(
      Type.Array(ScopeName, {
        minItems: 1,
        maxItems: GRANTABLE_SCOPES.length,
        uniqueItems: true,
        description: 'Integration keys only (default [read]); must be absent for personal keys',
      }),
    ),
    person_id: Type.Optional(
      Nullable(
        Id(
          "Personal keys: an active member (default: the calling key's person). Integration keys: attribution (default: the calling key's person)",
        ),
      ),
    ),
    expires_at: Type.Optional(
      Nullable(Type.String({ format: 'date-time', description: 'Expiry, in the future; null: never' })),
    ),
    ip_allowlist: Type.Optional(Allowlist),
  },
  { additionalProperties: false, title: 'ApiKeyCreate' },
);
export type ApiKeyCreateBody = Static<typeof ApiKeyCreate>;

export const RotatedKey = Type.Object(
  {
    new_key: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      key_prefix: Type.String(),
      full_key: Type.String({ description: 'The new secret key; shown only in this response' }),
      kind: Kind,
      person_id: Nullable(Type.Integer()),
      scopes: Scopes,
    }),
    old_key_id: Type.Integer(),
    old_key_grace_expires_at: Timestamp('The old key keeps working until this time (UTC)'),
  },
  { title: 'RotatedKey' },
);
export type RotatedKeyRecord = Static<typeof RotatedKey>;

export const Me = Type.Object(
  {
    company: Type.Object({
      id: Type.String({ description: 'Company UUID' }),
      name: Type.String(),
      timezone: Type.String({ description: 'IANA time zone; offset-less time-entry datetimes are read in it' }),
    }),
    credential: Type.Union([Type.Literal('api_key'), Type.Literal('session')], {
      description: 'api_key: the request carried X-API-Key; session: a member signed in to the web application',
    }),
    key: Nullable(
      Type.Object(
        {
          id: Type.Integer(),
          name: Type.String(),
          kind: Kind,
          scopes: Scopes,
          key_prefix: Type.String(),
        },
        { description: 'The API key of the request; null for a session' },
      ),
    ),
    person: Nullable(
      Type.Object(
        {
          person_id: Type.Integer(),
          member_id: Nullable(Type.Integer()),
          name: Type.String(),
          surname: Nullable(Type.String()),
          email: Nullable(Type.String()),
          role: Nullable(Type.String({ description: 'member, admin or owner' })),
        },
        {
          description:
            "The acting person: a personal key's member, or the person an integration key is attributed to; null if none",
        },
      ),
    ),
  },
  { title: 'Me' },
);
export type MeRecord = Static<typeof Me>;

export const KEY_LIST_OPTIONS = {
  sortable: { id: 'k.id', name: 'k.name', created_at: 'k.created_at' },
  defaultSort: 'id',
  cursor: false,
};
export const ApiKeyListQuery = listQuery({}, KEY_LIST_OPTIONS);
export type ApiKeyListParams = Static<typeof ApiKeyListQuery>;
