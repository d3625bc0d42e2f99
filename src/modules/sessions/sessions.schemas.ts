import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from '../../platform/fields.ts';
import { PASSWORD_MAX } from './sessions.passwords.ts';

const Email = Type.String({
  minLength: 1,
  maxLength: 254,
  description: 'The e-mail address the account signs in with',
});
/** What a sign-in or a current password may be: nothing longer is ever a password here (hashing stays bounded). */
const GivenPassword = (description: string) => Type.String({ minLength: 1, maxLength: PASSWORD_MAX, description });
const NewPassword = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 1000,
    description: `${description}: 10-200 characters, not the e-mail address`,
  });
const Token = Type.String({ minLength: 1, maxLength: 100, description: 'The token of the reset link (after #token=)' });

export const SignIn = Type.Object(
  { email: Email, password: GivenPassword('The password') },
  { additionalProperties: false, title: 'SignIn' },
);
export type SignInBody = Static<typeof SignIn>;

export const PasswordChange = Type.Object(
  {
    current_password: GivenPassword('The password the account has now'),
    new_password: NewPassword('The new password'),
  },
  { additionalProperties: false, title: 'PasswordChange' },
);
export type PasswordChangeBody = Static<typeof PasswordChange>;

export const PasswordResetRequest = Type.Object(
  { email: Email },
  { additionalProperties: false, title: 'PasswordResetRequest' },
);
export type PasswordResetRequestBody = Static<typeof PasswordResetRequest>;

export const PasswordResetComplete = Type.Object(
  { token: Token, password: NewPassword('The new password') },
  { additionalProperties: false, title: 'PasswordResetComplete' },
);
export type PasswordResetCompleteBody = Static<typeof PasswordResetComplete>;

export const PasswordResetAccepted = Type.Object(
  { status: Type.Literal('accepted', { description: 'Always; a mail goes out only when the address has an account' }) },
  { title: 'PasswordResetAccepted' },
);

export const SessionCompany = Type.Object(
  {
    id: Type.String({ description: 'Company UUID: the X-Service-Company of requests made for it' }),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone of the company' }),
    member_id: Type.Integer({ description: 'The signed-in member in this company' }),
    person_id: Type.Integer({ description: 'Its person (assignees, time entries, visibility)' }),
    role: Type.Union([Type.Literal('member'), Type.Literal('admin'), Type.Literal('owner')]),
    status: Type.Literal('active', { description: 'Only companies where the member is active are listed' }),
    locale_code: Nullable(Type.String({ description: "The member's language and formats, e.g. en or et" })),
    person: Type.Object({ name: Type.String(), surname: Nullable(Type.String()) }),
  },
  { title: 'SessionCompany' },
);
export type SessionCompanyRecord = Static<typeof SessionCompany>;

export const SessionView = Type.Object(
  {
    session_id: Type.Integer({ description: 'This session (current: true in GET /auth/sessions)' }),
    account: Type.Object({ id: Type.Integer(), email: Type.String() }),
    companies: Type.Array(SessionCompany, { description: 'Where the account has an active member (up to 100)' }),
    csrf_token: Type.String({ description: 'Send as X-CSRF-Token on every write made with this session' }),
    idle_expires_at: Timestamp('When the session ends without activity (moved on by requests, to the minute)'),
    absolute_expires_at: Timestamp('When the session ends whatever happens'),
  },
  { title: 'SessionView' },
);
export type SessionViewRecord = Static<typeof SessionView>;

export const SessionListItem = Type.Object(
  {
    id: Type.Integer(),
    created_at: Timestamp('When it was signed in'),
    last_seen_at: Timestamp('Its last request (to the minute)'),
    idle_expires_at: Timestamp('When it ends without activity'),
    absolute_expires_at: Timestamp('When it ends whatever happens'),
    user_agent: Nullable(Type.String({ description: 'The browser that signed in (first 256 characters)' })),
    ip: Nullable(Type.String({ description: 'The address it signed in from' })),
    current: Type.Boolean({ description: 'The session of this request' }),
  },
  { title: 'SessionListItem' },
);
export type SessionListItem = Static<typeof SessionListItem>;
