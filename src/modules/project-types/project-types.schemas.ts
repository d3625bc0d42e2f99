import { Type, type Static } from 'typebox';
import { EnumList, Timestamp, Literals } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const PROJECT_TYPE_STATUSES = ['active', 'inactive'] as const;
export type ProjectTypeStatus = (typeof PROJECT_TYPE_STATUSES)[number];
/** What a new company starts with (the 0030 migration backfills the same names for older companies). */
export const DEFAULT_PROJECT_TYPES = ['General', 'Event', 'Internal'] as const;

export const ProjectType = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'Project type name' }),
    status: Literals(PROJECT_TYPE_STATUSES, { description: 'active or inactive' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ProjectType' },
);
export type ProjectTypeRecord = Static<typeof ProjectType>;

export const PROJECT_TYPE_LIST_OPTIONS = {
  sortable: { id: 'pt.id', name: 'pt.name', created_at: 'pt.created_at' },
  defaultSort: 'id',
  cursor: false,
};
export const PROJECT_TYPE_FILTERS = ['status', 'q'] as const;
export const ProjectTypeListQuery = listQuery(
  {
    status: Type.Optional(EnumList(PROJECT_TYPE_STATUSES, 'Status filter')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  PROJECT_TYPE_LIST_OPTIONS,
);
export type ProjectTypeListParams = Static<typeof ProjectTypeListQuery>;
