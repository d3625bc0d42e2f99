import { Type, type Static } from 'typebox';
import { Color, EnumList, FlagIn, FlagOut, mapOptional, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const TOPIC_STATUSES = ['active', 'inactive'] as const;

const Status = Type.Union([Type.Literal('active'), Type.Literal('inactive')], {
  description: 'active (default) or inactive',
});

const topicFields = {
  name: Name('Topic name, 1-255 characters'),
  status: Status,
  color: Nullable(Color),
};

export const Topic = Type.Object(
  {
    id: Type.Integer(),
    ...topicFields,
    billable: FlagOut('1 when work on this topic is billable'),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Topic' },
);
export type TopicRecord = Static<typeof Topic>;

const writable = { ...topicFields, billable: FlagIn('0/1 or boolean; default 1') };

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const TopicCreate = Type.Object(
  { ...mapOptional(writable), name: writable.name },
  { additionalProperties: false, title: 'TopicCreate' },
);
export type TopicCreateBody = Static<typeof TopicCreate>;
export const TopicUpdate = Type.Object(mapOptional(writable), { additionalProperties: false, title: 'TopicUpdate' });
export type TopicUpdateBody = Static<typeof TopicUpdate>;

export const TOPIC_LIST_OPTIONS = {
  sortable: { id: 'tp.id', name: 'tp.name', created_at: 'tp.created_at', updated_at: 'tp.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const TOPIC_FILTERS = ['status', 'q'] as const;
export const TopicListQuery = listQuery(
  {
    status: Type.Optional(EnumList(TOPIC_STATUSES, 'Status filter')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  TOPIC_LIST_OPTIONS,
);
export type TopicListParams = Static<typeof TopicListQuery>;
