import { customFieldFilterSchema } from '../custom-fields/index.ts';
import { Type, type Static } from 'typebox';
import {
  CustomFields,
  EnumList,
  Id,
  mapOptional,
  Name,
  Nullable,
  Text,
  Timestamp,
  Literals,
} from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const PROJECT_STATUSES = ['active', 'cancelled', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const STATUS_ACTIONS = ['activate', 'cancel', 'archive', 'unarchive'] as const;
export type StatusAction = (typeof STATUS_ACTIONS)[number];

/**
 * The project state machine: which statuses each action accepts, and where it leads.
 * `unarchive` returns to the status the project had when it was archived (null here).
 */
export const TRANSITIONS: Record<StatusAction, { from: readonly ProjectStatus[]; to: ProjectStatus | null }> = {
  activate: { from: ['cancelled'], to: 'active' },
  cancel: { from: ['active'], to: 'cancelled' },
  archive: { from: ['active', 'cancelled'], to: 'archived' },
  unarchive: { from: ['archived'], to: null },
};

const STATE_MACHINE =
  'activate: cancelled → active; cancel: active → cancelled; archive: active or cancelled → archived; ' +
  'unarchive: archived → the status before archiving. Any other combination is 409 INVALID_STATUS_TRANSITION.';

const projectFields = {
  name: Name('Project name, 1-255 characters; on create without it: the type name and a number, e.g. "Event 3"'),
  project_type_id: Id('Project type (see GET /project-types)'),
  manager_id: Nullable(Id('Managing person id')),
  status_text: Text('Free-text status note'),
  event_date: Nullable(Timestamp("Date and time of the project's event (ISO 8601 with offset)")),
};

export const Project = Type.Object(
  {
    id: Type.Integer(),
    ...projectFields,
    client_id: Nullable(Type.Integer({ description: 'Client the project (and its tasks) belong to' })),
    status: Literals(PROJECT_STATUSES, {
      description: `active (on create), cancelled or archived; changed only through status_action. ${STATE_MACHINE}`,
    }),
    custom_fields: CustomFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Project' },
);
export type ProjectRecord = Static<typeof Project>;

const writable = { ...projectFields, custom_fields: CustomFields, fields: CustomFields };

export const ProjectCreate = Type.Object(
  {
    ...mapOptional(writable),
    project_type_id: writable.project_type_id,
    client_id: Type.Optional(Nullable(Id('Client id'))),
  },
  { additionalProperties: false, title: 'ProjectCreate' },
);
export type ProjectCreateBody = Static<typeof ProjectCreate>;

export const ProjectUpdate = Type.Object(
  {
    ...mapOptional(writable),
    client_id: Type.Optional(
      Id('A different client moves the project and all its tasks there; the current one is a no-op'),
    ),
    status_action: Type.Optional(Literals(STATUS_ACTIONS, { description: STATE_MACHINE })),
  },
  { additionalProperties: false, title: 'ProjectUpdate' },
);
export type ProjectUpdateBody = Static<typeof ProjectUpdate>;

export const PROJECT_LIST_OPTIONS = {
  sortable: { id: 'p.id', name: 'p.name', created_at: 'p.created_at', updated_at: 'p.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const PROJECT_FILTERS = ['status', 'client_id', 'manager_id', 'project_type_id', 'q'] as const;
// custom_fields[<name>]=<value> filters (issue 12, decision 0028) ride on patternProperties next to the named ones.
export const ProjectListQuery = {
  ...listQuery(
    {
      status: Type.Optional(EnumList(PROJECT_STATUSES, 'Status filter')),
      client_id: Type.Optional(Id('Client id')),
      manager_id: Type.Optional(Id('Managing person id')),
      project_type_id: Type.Optional(Id('Project type id')),
      q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
    },
    PROJECT_LIST_OPTIONS,
  ),
  ...customFieldFilterSchema,
};
export type ProjectListParams = Static<typeof ProjectListQuery>;
