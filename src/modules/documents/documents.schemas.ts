import { Type, type Static } from 'typebox';
import { Id, mapOptional, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

/** Text a document may carry itself (e.g. a pasted letter), which digitization reads. */
export const TEXT_MAX = 100_000;

const documentFields = {
  folder_id: Nullable(Id("Folder of the document's client; null: not filed")),
  name: Name('Document name, 1-255 characters'),
  attachment_id: Nullable(Id('Attachment holding the file, if any')),
  text_content: Nullable(
    Type.String({ maxLength: TEXT_MAX, description: `Text of the document, up to ${TEXT_MAX} characters` }),
  ),
};

export const Document = Type.Object(
  {
    id: Type.Integer(),
    client_id: Type.Integer(),
    ...documentFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Document' },
);
export type DocumentRecord = Static<typeof Document>;

export const DocumentCreate = Type.Object(
  { client_id: Id('Client the document belongs to'), ...mapOptional(documentFields), name: documentFields.name },
  { additionalProperties: false, title: 'DocumentCreate' },
);
export type DocumentCreateBody = Static<typeof DocumentCreate>;

/** The client is fixed at create (a document moves between folders of its client only). */
export const DocumentUpdate = Type.Object(mapOptional(documentFields), {
  additionalProperties: false,
  title: 'DocumentUpdate',
});
export type DocumentUpdateBody = Static<typeof DocumentUpdate>;

export const DOCUMENT_LIST_OPTIONS = {
  sortable: { id: 'd.id', name: 'd.name', created_at: 'd.created_at', updated_at: 'd.updated_at' },
  defaultSort: 'id',
};
export const DOCUMENT_FILTERS = ['client_id', 'folder_id', 'q'] as const;
export const DocumentListQuery = listQuery(
  {
    client_id: Type.Optional(Id('Documents of this client')),
    folder_id: Type.Optional(Id('Documents in this folder')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  DOCUMENT_LIST_OPTIONS,
);
export type DocumentListParams = Static<typeof DocumentListQuery>;
