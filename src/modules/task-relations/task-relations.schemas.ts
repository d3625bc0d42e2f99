import { Type, type Static } from 'typebox';
import { Id, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const TaskRelation = Type.Object(
  {
    id: Type.Integer(),
    task_id: Type.Integer({ description: 'The dependent task' }),
    depends_on_id: Type.Integer({ description: 'The task it depends on (must be done first)' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC); relations are never edited, so it equals created_at'),
  },
  { title: 'TaskRelation' },
);
export type TaskRelationRecord = Static<typeof TaskRelation>;

export const TaskRelationCreate = Type.Object(
  {
    task_id: Id('The dependent task'),
    depends_on_id: Id(
      'The task it depends on; not the task itself, and not one that (transitively) depends on task_id',
    ),
  },
  { additionalProperties: false, title: 'TaskRelationCreate' },
);
export type TaskRelationCreateBody = Static<typeof TaskRelationCreate>;

export const TASK_RELATION_LIST_OPTIONS = {
  sortable: { id: 'r.id', created_at: 'r.created_at' },
  defaultSort: 'id',
  cursor: false,
};
export const TASK_RELATION_FILTERS = ['task_id', 'depends_on_id'] as const;
export const TaskRelationListQuery = listQuery(
  {
    task_id: Type.Optional(Id('Relations of this dependent task (what it depends on)')),
    depends_on_id: Type.Optional(Id('Relations pointing at this task (what depends on it)')),
  },
  TASK_RELATION_LIST_OPTIONS,
);
export type TaskRelationListParams = Static<typeof TaskRelationListQuery>;
