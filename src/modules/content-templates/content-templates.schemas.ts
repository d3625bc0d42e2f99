import { Type, type Static } from 'typebox';
import { EnumList, Id, mapOptional, Name, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';
import { CHANNELS, LOCALE_PATTERN, TEMPLATE_TYPES } from './content-templates.render.ts';

const Type_ = Type.Union([Type.Literal('invoice_email'), Type.Literal('client_email')], {
  description: 'What the template is for: invoice_email (invoice mails) or client_email (POST /clients/{id}/emails)',
});
const Format = Type.Union([Type.Literal('text'), Type.Literal('html')], {
  description: 'text (default) or html; values are HTML-escaped in html bodies',
});

/** One text line; a subject with a line break would forge mail headers. */
export const Subject = Type.String({
  maxLength: 255,
  pattern: '^[^\\r\\n]*$',
  description: 'Subject line, up to 255 characters, placeholders allowed',
});
/** 20 000 characters is a long letter; templates are not documents. */
export const Body = Type.String({
  maxLength: 20_000,
  description: 'Message body, up to 20000 characters, placeholders allowed',
});
export const Locale = Type.String({
  minLength: 2,
  maxLength: 35,
  pattern: LOCALE_PATTERN,
  description: 'BCP 47 locale: language[-Script][-REGION], e.g. en, fi, en-GB',
});

/** One call mails at most this many contacts: a client's people, not a mailing list. */
export const MAX_RECIPIENTS = 50;

const RowFields = { locale: Locale, subject: Subject, body: Body };

export const ContentTemplateRow = Type.Object(
  {
    id: Type.Integer(),
    template_id: Type.Integer(),
    ...RowFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ContentTemplateRow' },
);
export type ContentTemplateRowRecord = Static<typeof ContentTemplateRow>;

const templateFields = {
  name: Name('Template name, 1-255 characters'),
  type: Type_,
  channel: Type.Literal('email', { description: 'Delivery channel: email' }),
  format: Format,
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')], {
    description: 'active (default) or inactive; an inactive template is never used',
  }),
  is_default: Type.Boolean({
    description: 'The template the service uses for its type and channel; setting it clears the previous default',
  }),
  default_locale: Type.String({
    ...Locale,
    description: "Locale whose row is used when the recipient's locale has none (default en)",
  }),
};

export const ContentTemplate = Type.Object(
  {
    id: Type.Integer(),
    ...templateFields,
    rows: Type.Array(ContentTemplateRow, { description: 'One row per locale' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ContentTemplate' },
);
export type ContentTemplateRecord = Static<typeof ContentTemplate>;

export const RowInput = Type.Object(RowFields, { additionalProperties: false, title: 'ContentTemplateRowInput' });
export type RowInputBody = Static<typeof RowInput>;
/** The locale is the row's identity (the upsert's key): to move a text to another locale, post it there. */
export const RowPatch = Type.Object(
  { subject: Type.Optional(Subject), body: Type.Optional(Body) },
  { additionalProperties: false, title: 'ContentTemplateRowUpdate' },
);
export type RowPatchBody = Static<typeof RowPatch>;

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const ContentTemplateCreate = Type.Object(
  {
    ...mapOptional(templateFields),
    name: templateFields.name,
    type: templateFields.type,
    rows: Type.Optional(Type.Array(RowInput, { maxItems: 50, description: 'Rows, one per locale (up to 50)' })),
  },
  { additionalProperties: false, title: 'ContentTemplateCreate' },
);
export type ContentTemplateCreateBody = Static<typeof ContentTemplateCreate>;

/** type and format are fixed once created: the rows were checked and sanitized for them. Rows change through /rows. */
const { type: _type, format: _format, ...updatable } = templateFields;
export const ContentTemplateUpdate = Type.Object(mapOptional(updatable), {
  additionalProperties: false,
  title: 'ContentTemplateUpdate',
});
export type ContentTemplateUpdateBody = Static<typeof ContentTemplateUpdate>;

export const CONTENT_TEMPLATE_LIST_OPTIONS = {
  sortable: { id: 't.id', name: 't.name', created_at: 't.created_at', updated_at: 't.updated_at' },
  defaultSort: 'id',
};
export const CONTENT_TEMPLATE_FILTERS = ['type', 'channel', 'status', 'q'] as const;
export const ContentTemplateListQuery = listQuery(
  {
    type: Type.Optional(EnumList(TEMPLATE_TYPES, 'Type filter (comma-separated)')),
    channel: Type.Optional(EnumList(CHANNELS, 'Channel filter (comma-separated)')),
    status: Type.Optional(EnumList(['active', 'inactive'], 'Status filter (comma-separated)')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  CONTENT_TEMPLATE_LIST_OPTIONS,
);

export const ClientEmailInput = Type.Object(
  {
    contact_ids: Type.Optional(
      Type.Array(Id('Contact id'), {
        uniqueItems: true,
        minItems: 1,
        maxItems: MAX_RECIPIENTS,
        description: `Contacts of the client to mail, up to ${MAX_RECIPIENTS} (default: every contact with an e-mail)`,
      }),
    ),
    template_id: Type.Optional(Id("A client_email content template (default: the company's default one)")),
    subject: Type.Optional(Type.String({ ...Subject, minLength: 1 })),
    body: Type.Optional(Type.String({ ...Body, minLength: 1 })),
    format: Type.Optional(Format),
  },
  { additionalProperties: false, title: 'ClientEmailInput' },
);
export type ClientEmailBody = Static<typeof ClientEmailInput>;

export const ClientEmailResult = Type.Object(
  {
    client_id: Type.Integer(),
    note_id: Type.Integer({ description: 'The note of type email logging the mail on the client' }),
    template_id: Type.Union([Type.Integer(), Type.Null()]),
    job_id: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'The client_email_send job sending the queued mails (GET /jobs/{id}); null when nothing is sent (no SMTP)',
    }),
    recipients: Type.Array(
      Type.Object({
        contact_id: Type.Integer(),
        email: Type.String(),
        locale: Type.Union([Type.String(), Type.Null()], {
          description: 'Locale of the row used; null for a body given directly',
        }),
        subject: Type.String(),
        status: Type.Union([Type.Literal('logged'), Type.Literal('queued')], {
          description:
            'queued (committed to the mail outbox; the job sends it after the request, retrying a refusal) or logged (no SMTP configured: kept in the mail outbox)',
        }),
      }),
    ),
  },
  { title: 'ClientEmailResult' },
);
export type ClientEmailResultRecord = Static<typeof ClientEmailResult>;
export type ContentTemplateListParams = Static<typeof ContentTemplateListQuery>;
