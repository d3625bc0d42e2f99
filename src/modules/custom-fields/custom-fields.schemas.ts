import { Type, type Static } from 'typebox';
import { EnumList, mapOptional, Timestamp, Literals } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'select', 'multiselect', 'json'] as const;
export const ENTITY_TYPES = ['client', 'contact', 'task', 'project', 'member'] as const;
export const FIELD_STATUSES = ['active', 'inactive'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export type EntityType = (typeof ENTITY_TYPES)[number];
export type FieldStatus = (typeof FIELD_STATUSES)[number];
export const CHOICE_TYPES: ReadonlySet<FieldType> = new Set(['select', 'multiselect']);

const FieldTypeSchema = Literals(FIELD_TYPES, {
  description:
    'text, number, date (YYYY-MM-DD), boolean, select (one option), multiselect (a list of options) or json (any JSON value within the free-form bounds)',
});
const EntityTypeSchema = Literals(ENTITY_TYPES, {
  description: 'The records that carry the field: client, contact, task, project or member',
});
const StatusSchema = Literals(FIELD_STATUSES, {
  description: 'active (default; accepted on records) or inactive (refused on records, values kept)',
});

const definitionFields = {
  // The name is the key of the value in a record's custom_fields object and in the list filter
  // custom_fields[<name>]=<value>, so brackets and control characters are kept out of it.
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[^\\[\\]\\x00-\\x1f]+$',
    description: 'Key of the value in custom_fields; 1-100 characters, no [ ] or control characters; immutable',
  }),
  field_type: FieldTypeSchema,
  entity_type: EntityTypeSchema,
  status: StatusSchema,
  options: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
    uniqueItems: true,
    maxItems: 200,
    description: 'Choices of a select or multiselect field (required for those, empty for the others)',
  }),
};

export const CustomField = Type.Object(
  {
    id: Type.Integer(),
    ...definitionFields,
    is_system: Type.Boolean({ description: 'Provisioned by the service: read-only and not deletable' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'CustomField' },
);
export type CustomFieldRecord = Static<typeof CustomField>;

export const CustomFieldCreate = Type.Object(
  {
    ...mapOptional(definitionFields),
    name: definitionFields.name,
    field_type: definitionFields.field_type,
    entity_type: definitionFields.entity_type,
  },
  { additionalProperties: false, title: 'CustomFieldCreate' },
);
export type CustomFieldCreateBody = Static<typeof CustomFieldCreate>;
// name, field_type and entity_type are accepted so that re-sending the current value is harmless; a change is 403.
export const CustomFieldUpdate = Type.Object(mapOptional(definitionFields), {
  additionalProperties: false,
  title: 'CustomFieldUpdate',
});
export type CustomFieldUpdateBody = Static<typeof CustomFieldUpdate>;

export const CUSTOM_FIELD_LIST_OPTIONS = {
  sortable: { id: 'f.id', name: 'f.name', created_at: 'f.created_at', updated_at: 'f.updated_at' },
  defaultSort: 'id',
};
export const CUSTOM_FIELD_FILTERS = ['entity_type', 'status', 'is_system', 'q'] as const;
export const CustomFieldListQuery = listQuery(
  {
    entity_type: Type.Optional(EnumList(ENTITY_TYPES, 'Entity type filter')),
    status: Type.Optional(EnumList(FIELD_STATUSES, 'Status filter')),
    is_system: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')], {
        description: 'true/false (or 1/0)',
      }),
    ),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  CUSTOM_FIELD_LIST_OPTIONS,
);
export type CustomFieldListParams = Static<typeof CustomFieldListQuery>;
