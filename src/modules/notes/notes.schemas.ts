import { Type, type Static } from 'typebox';
import { EnumList, Id, mapOptional, Nullable, Timestamp, Literals } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';
import type { TenantTableName } from '../../platform/tenant-table.ts';

/**
 * What a note can hang on: where each related type lives and the INVALID_<ENTITY> code a bad id answers. An
 * account member is the `id` of /members; the spec has no INVALID_MEMBER, and it files members under INVALID_PERSON elsewhere.
 */
export const NOTE_PARENTS = {
  client: { table: 'clients', entity: 'client' },
  project: { table: 'projects', entity: 'project' },
  supplier: { table: 'suppliers', entity: 'supplier' },
  account_member: { table: 'members', entity: 'person' },
} as const satisfies Record<string, { table: TenantTableName; entity: string }>;
export type RelatedType = keyof typeof NOTE_PARENTS;
export const RELATED_TYPES = Object.keys(NOTE_PARENTS) as RelatedType[];
export const NOTE_TYPES = ['info', 'document', 'email', 'billing'] as const;
export type NoteTypeName = (typeof NOTE_TYPES)[number];

const RelatedTypeSchema = Literals(RELATED_TYPES, {
  description: 'What the note hangs on: client, project, supplier or account_member',
});
const NoteType = Type.Union(
  [Type.Literal('info'), Type.Literal('document'), Type.Literal('email'), Type.Literal('billing')],
  { description: 'info (default), document, email or billing' },
);
/** The stored value is smaller than or close to this; HTML-escaping may grow it a little, which is harmless. */
const COMMENTS_MAX = 65_535;

const noteFields = {
  related_type: RelatedTypeSchema,
  related_id: Id('Id of the related record; for account_member the member id of /members (not the person id)'),
  type: NoteType,
  is_pinned: Type.Boolean({ description: 'Pinned notes are shown first by clients' }),
  comments: Type.String({
    maxLength: COMMENTS_MAX,
    description: 'HTML; sanitized on write (formatting and http/https/mailto links kept, anything active dropped)',
  }),
};

export const Note = Type.Object(
  {
    id: Type.Integer(),
    ...noteFields,
    created_by_person_id: Nullable(Type.Integer({ description: 'Person the writing key acts for' })),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Note' },
);
export type NoteRecord = Static<typeof Note>;

export const NoteCreate = Type.Object(
  { ...mapOptional(noteFields), related_type: noteFields.related_type, related_id: noteFields.related_id },
  { additionalProperties: false, title: 'NoteCreate' },
);
export type NoteCreateBody = Static<typeof NoteCreate>;
export const NoteUpdate = Type.Object(mapOptional(noteFields), { additionalProperties: false, title: 'NoteUpdate' });
export type NoteUpdateBody = Static<typeof NoteUpdate>;

export const NOTE_LIST_OPTIONS = {
  sortable: { id: 'n.id', created_at: 'n.created_at', updated_at: 'n.updated_at' },
  defaultSort: 'id',
};
export const NOTE_FILTERS = ['related_type', 'related_id', 'type', 'is_pinned'] as const;
export const NoteListQuery = listQuery(
  {
    related_type: Type.Optional(EnumList(RELATED_TYPES, 'Related type filter')),
    related_id: Type.Optional(Id('Related record id (use with related_type)')),
    type: Type.Optional(EnumList(NOTE_TYPES, 'Note type filter')),
    is_pinned: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')], {
        description: 'true/false (or 1/0)',
      }),
    ),
  },
  NOTE_LIST_OPTIONS,
);
export type NoteListParams = Static<typeof NoteListQuery>;
