import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const INVITATION_STATUSES = ['pending', 'accepted', 'cancelled', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
/** A link is valid this long from when it was (re)sent. */
export const INVITATION_DAYS = 7;

const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: '^[^@\\s]+@[^@\\s]+$',
  description: 'Where the link goes',
});
const Role = Type.Union([Type.Literal('member'), Type.Literal('admin')], {
  description: 'The role the member gets on accepting: member or admin (owners are never invited)',
});

export const Invitation = Type.Object(
  {
    id: Type.Integer(),
    member_id: Type.Integer(),
    person_id: Type.Integer(),
    email: Type.String(),
    name: Nullable(Type.String()),
    surname: Nullable(Type.String()),
    role: Role,
    status: Type.Union(
      INVITATION_STATUSES.map((s) => Type.Literal(s)),
      {
        description: 'pending, accepted, cancelled, or expired (pending past expires_at)',
      },
    ),
    created_at: Timestamp('When it was created'),
    expires_at: Timestamp('When the current link stops working'),
  },
  { title: 'Invitation' },
);
export type InvitationRecord = Static<typeof Invitation>;

export const InvitationCreate = Type.Object(
  {
    email: Email,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    surname: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    role: Role,
    person_id: Type.Optional(
      Type.Integer({ minimum: 1, description: 'A limited placeholder member (POST /members) to invite; owners only' }),
    ),
  },
  { additionalProperties: false, title: 'InvitationCreate' },
);
export type InvitationCreateBody = Static<typeof InvitationCreate>;

export const INVITATION_FILTERS = ['status'] as const;
export const InvitationListQuery = listQuery({
  status: Type.Optional(Type.Union(INVITATION_STATUSES.map((s) => Type.Literal(s)))),
});

const Token = Type.String({ minLength: 1, maxLength: 100, description: 'The token of the link (after #token=)' });

export const InvitationToken = Type.Object({ token: Token }, { additionalProperties: false, title: 'InvitationToken' });
export type InvitationTokenBody = Static<typeof InvitationToken>;

export const InvitationAccept = Type.Object(
  {
    token: Token,
    password: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'A new password (10-200 characters), or the existing account password when has_account',
    }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    surname: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  },
  { additionalProperties: false, title: 'InvitationAccept' },
);
export type InvitationAcceptBody = Static<typeof InvitationAccept>;

export const InvitationInspection = Type.Object(
  {
    company: Type.Object({ id: Type.String(), name: Type.String() }),
    email: Type.String(),
    name: Nullable(Type.String()),
    surname: Nullable(Type.String()),
    has_account: Type.Boolean({ description: 'The address signs in already: accepting asks for that password' }),
  },
  { title: 'InvitationInspection' },
);
export type InvitationInspectionRecord = Static<typeof InvitationInspection>;
export type InvitationListParams = Static<typeof InvitationListQuery>;
