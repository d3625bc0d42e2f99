import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const RELATED_TYPES = ['task', 'note'] as const;
export type RelatedType = (typeof RELATED_TYPES)[number];

export const Attachment = Type.Object(
  {
    id: Type.Integer(),
    related_type: Type.Union([Type.Literal('task'), Type.Literal('note')], { description: 'What it hangs on' }),
    related_id: Type.Integer({ description: 'Id of the task or note' }),
    file_name: Type.String({ description: 'The uploaded name, without any path' }),
    content_type: Type.String({ description: 'Type of the bytes, as checked at upload' }),
    size: Type.Integer({ description: 'Bytes' }),
    sha256: Type.String({ description: 'SHA-256 of the bytes, hex' }),
    status: Type.Union([Type.Literal('processing'), Type.Literal('ready'), Type.Literal('failed')], {
      description: 'processing until the stored bytes are verified; download answers 409 until ready',
    }),
    created_by_person_id: Nullable(Type.Integer()),
    processed_at: Nullable(Timestamp('When verification finished (UTC)')),
    created_at: Timestamp('Upload time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Attachment' },
);
export type AttachmentRecord = Static<typeof Attachment>;

/**
 * The multipart form, for the OpenAPI document (so /docs can upload). The route's own hook reads the form as a
 * stream; what reaches validation is a summary of the received file (its hash and name), which the
 * idempotency check then compares.
 */
export const UploadForm = Type.Object(
  { file: Type.String({ format: 'binary', maxLength: 1024, description: 'The file (one part named file)' }) },
  { additionalProperties: false, title: 'AttachmentUpload' },
);

export const ATTACHMENT_LIST_OPTIONS = {
  sortable: {
    id: 'a.id',
    file_name: 'a.file_name',
    size: 'a.size',
    created_at: 'a.created_at',
    updated_at: 'a.updated_at',
  },
  defaultSort: 'id',
};
export const ATTACHMENT_FILTERS = ['related_type', 'related_id', 'q'] as const;
export const AttachmentListQuery = listQuery(
  {
    related_type: Type.Optional(
      Type.Union([Type.Literal('task'), Type.Literal('note')], { description: 'task or note' }),
    ),
    related_id: Type.Optional(Id('Id of the task or note (use with related_type)')),
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'File name contains (case-insensitive)' }),
    ),
  },
  ATTACHMENT_LIST_OPTIONS,
);

/** The bytes of GET /attachments/{id}/download, whole (200) or one range (206), as the type they were stored with. */
export const FileBody = (description: string) => ({
  description: `${description}, with Content-Type the attachment's stored content_type`,
  content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
});
export type AttachmentListParams = Static<typeof AttachmentListQuery>;
