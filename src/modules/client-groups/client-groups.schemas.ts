import { Type, type Static } from 'typebox';
import { Color, EnumList, mapOptional, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const CLIENT_GROUP_STATUSES = ['active', 'inactive'] as const;
export type ClientGroupStatus = (typeof CLIENT_GROUP_STATUSES)[number];

const Status = Type.Union([Type.Literal('active'), Type.Literal('inactive')], {
  description: 'active (default) or inactive',
});

const groupFields = {
  name: Name('Group name, 1-255 characters'),
  color: Nullable(Color),
  status: Status,
};

export const ClientGroup = Type.Object(
  {
    id: Type.Integer(),
    ...groupFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ClientGroup' },
);
export type ClientGroupRecord = Static<typeof ClientGroup>;

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills status.
export const ClientGroupCreate = Type.Object(
  { ...mapOptional(groupFields), name: groupFields.name },
  { additionalProperties: false, title: 'ClientGroupCreate' },
);
export type ClientGroupCreateBody = Static<typeof ClientGroupCreate>;
export const ClientGroupUpdate = Type.Object(mapOptional(groupFields), {
  additionalProperties: false,
  title: 'ClientGroupUpdate',
});
export type ClientGroupUpdateBody = Static<typeof ClientGroupUpdate>;

export const CLIENT_GROUP_LIST_OPTIONS = {
  sortable: { id: 'g.id', name: 'g.name', created_at: 'g.created_at', updated_at: 'g.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const CLIENT_GROUP_FILTERS = ['status', 'q'] as const;
export const ClientGroupListQuery = listQuery(
  {
    status: Type.Optional(EnumList(CLIENT_GROUP_STATUSES, 'Status filter')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  CLIENT_GROUP_LIST_OPTIONS,
);
export type ClientGroupListParams = Static<typeof ClientGroupListQuery>;
