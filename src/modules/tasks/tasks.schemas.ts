import { customFieldFilterSchema } from '../custom-fields/index.ts';
import { Type, type Static } from 'typebox';
import {
  CustomFields,
  DateOnly,
  EnumList,
  FlagIn,
  FlagOut,
  Id,
  IdList,
  Literals,
  mapOptional,
  Name,
  Nullable,
  Timestamp,
} from '../../platform/fields.ts';
import { listQuery, type ListFilters } from '../../platform/lists.ts';

export const TASK_STATUSES = ['new', 'in_progress', 'finished', 'inactive', 'archived'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** Statuses complete remembers so reopen can go back to them; any other prior status reopens as `new`. */
export const OPEN_STATUSES: readonly TaskStatus[] = ['new', 'in_progress'];
/** complete is refused from these (409 INVALID_STATUS_TRANSITION). */
export const NOT_COMPLETABLE: readonly TaskStatus[] = ['finished', 'archived'];
export const TASK_TYPES = ['task', 'chat', 'button', 'request'] as const;
/** How many comments a task read inlines (the newest, oldest first) before it sets comments_truncated. */
export const COMMENTS_INLINE_CAP = 20;
export const CHECKLIST_MAX_ITEMS = 200;

const Status = Literals(TASK_STATUSES, { description: 'new (default), in_progress, finished, inactive or archived' });
const TaskType = Literals(TASK_TYPES, { description: 'task (default), chat, button (timer rows) or request' });
const When = (description: string) => Nullable(Timestamp(description));

export const ChecklistItem = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'Item id, stable across checklist replacements' }),
    text: Type.String({ minLength: 1, maxLength: 500, description: 'Item text, 1-500 characters' }),
    done: Type.Boolean({ description: 'true when the item is ticked' }),
  },
  { title: 'ChecklistItem' },
);
export type ChecklistItemRecord = Static<typeof ChecklistItem>;

export const Checklist = Type.Object(
  { items: Type.Array(ChecklistItem) },
  { title: 'Checklist', description: 'Replaced as a whole with PUT /tasks/{task_id}/checklist' },
);

export const RecurrenceRule = Type.Object(
  {
    rrule: Type.String({
      description: "RFC 5545 RRULE body, e.g. FREQ=WEEKLY;BYDAY=MO, evaluated on the company's wall clock",
    }),
    dtstart: Timestamp('Series start (UTC); its local time of day is the time of every occurrence'),
  },
  { title: 'RecurrenceRule' },
);
export type RecurrenceRuleRecord = Static<typeof RecurrenceRule>;

const RecurrenceRuleIn = Type.Object(
  {
    rrule: Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'RRULE body. Supported: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYHOUR, BYMINUTE, BYSECOND (one value each), WKST',
    }),
    dtstart: Type.Optional(Timestamp('Series start; defaults to the task date, else now')),
  },
  { additionalProperties: false, title: 'RecurrenceRuleInput' },
);

export const Comment = Type.Object(
  {
    id: Type.Integer(),
    task_id: Type.Integer(),
    person_id: Nullable(Type.Integer({ description: 'Author: the person the key acts as' })),
    body: Type.String(),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'TaskComment' },
);
export type CommentRecord = Static<typeof Comment>;

/** The task without its inlined comments: what task webhooks deliver. */
export const TaskLean = Type.Object(
  {
    id: Type.Integer(),
    client_id: Nullable(Type.Integer()),
    project_id: Nullable(Type.Integer()),
    topic_id: Nullable(Type.Integer()),
    project_status_from: Nullable(Type.String({ description: 'Set by project workflows; read-only' })),
    title: Type.String(),
    description: Type.String(),
    status: Status,
    type: TaskType,
    is_important: Type.Boolean(),
    is_extra: Type.Boolean(),
    is_recurring: FlagOut('1 on the master of a recurring series'),
    date: When('Start / scheduled time (UTC); for an occurrence, its instant'),
    due_date: When('Due time (UTC)'),
    finished_at: When('Set when the task is finished, cleared when reopened'),
    has_due_date: FlagOut('1 when due_date is meaningful'),
    estimation: Nullable(Type.Integer({ description: 'Estimated effort in seconds' })),
    timezone: Nullable(Type.String({ description: 'Zone name; defaults to the company timezone' })),
    tracked_time: Nullable(
      Type.Integer({ description: "Seconds logged in the task's time entries; a running entry counts up to now" }),
    ),
    assignees: Type.Array(Type.Integer(), { description: 'Assigned person ids' }),
    workflow_role_ids: Type.Array(Type.Integer()),
    checklist: Nullable(Checklist),
    recurrence_rule: Nullable(RecurrenceRule),
    recurrence_parent_id: Nullable(Type.Integer({ description: 'On an occurrence: the master task id' })),
    recurrence_date: Nullable(
      DateOnly('On an occurrence: its calendar day in the company timezone (name the day by this, never by date)'),
    ),
    custom_fields: CustomFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'TaskLean' },
);
export type TaskLeanRecord = Static<typeof TaskLean>;

export const Task = Type.Object(
  {
    ...TaskLean.properties,
    comments: Type.Array(Comment, { description: `The newest ${COMMENTS_INLINE_CAP} comments, oldest first` }),
    comments_truncated: Type.Boolean({ description: 'true when older comments were left out' }),
  },
  { title: 'Task' },
);
export type TaskRecord = Static<typeof Task>;

const assigneeList = (description: string) =>
  Type.Array(Id('Person id'), { uniqueItems: true, maxItems: 100, description });

const writable = {
  title: Name('Title, 1-255 characters'),
  description: Nullable(Type.String({ maxLength: 100_000, description: 'Free text; null stores an empty text' })),
  status: Status,
  type: TaskType,
  client_id: Nullable(Id("Client id; defaults to the project's client")),
  project_id: Nullable(Id("Project id; its client, if any, must be the task's client")),
  topic_id: Nullable(Id('Topic id')),
  is_important: FlagIn('Boolean (0/1 accepted)'),
  is_extra: FlagIn('Boolean (0/1 accepted)'),
  date: When('Start / scheduled time, ISO 8601 with offset'),
  due_date: When('Due time, ISO 8601 with offset'),
  has_due_date: FlagIn('0/1 or boolean; defaults to whether due_date is set'),
  estimation: Nullable(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'Estimated effort in seconds' })),
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA zone name, e.g. Europe/Tallinn' }),
  assignees: assigneeList('Person ids; replaces the whole list'),
  assignee_ids: assigneeList('Alias of assignees'),
  assignees_ids: assigneeList('Alias of assignees'),
  workflow_role_ids: IdList('Workflow role ids'),
  recurrence_rule: Nullable(RecurrenceRuleIn),
  custom_fields: CustomFields,
  fields: CustomFields,
};

export const TaskCreate = Type.Object(
  { ...mapOptional(writable), title: writable.title },
  { additionalProperties: false, title: 'TaskCreate' },
);
export type TaskCreateBody = Static<typeof TaskCreate>;
export const TaskUpdate = Type.Object(mapOptional(writable), { additionalProperties: false, title: 'TaskUpdate' });
export type TaskUpdateBody = Static<typeof TaskUpdate>;

export const ChecklistPut = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          id: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 2147483647,
              description: "Keep to preserve an item's id; omit for a new item",
            }),
          ),
          text: ChecklistItem.properties.text,
          done: ChecklistItem.properties.done,
        },
        { additionalProperties: false },
      ),
      { maxItems: CHECKLIST_MAX_ITEMS, description: `The whole checklist, up to ${CHECKLIST_MAX_ITEMS} items` },
    ),
  },
  { additionalProperties: false, title: 'ChecklistPut' },
);
export type ChecklistPutBody = Static<typeof ChecklistPut>;

export const CommentCreate = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: 10_000, description: 'Comment text, 1-10000 characters' }),
  },
  { additionalProperties: false, title: 'TaskCommentCreate' },
);
export type CommentCreateBody = Static<typeof CommentCreate>;

export const TASK_LIST_OPTIONS = {
  sortable: {
    id: 't.id',
    title: 't.title',
    status: 't.status',
    created_at: 't.created_at',
    updated_at: 't.updated_at',
  },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const TASK_FILTERS = [
  'status',
  'type',
  'client_id',
  'project_id',
  'topic_id',
  'assignee_id',
  'q',
  'is_important',
] as const;
// custom_fields[<name>]=<value> filters (issue 12, decision 0028) ride on patternProperties next to the named ones.
export const TaskListQuery = {
  ...listQuery(
    {
      status: Type.Optional(EnumList(TASK_STATUSES, 'Status filter')),
      type: Type.Optional(
        Literals(TASK_TYPES, {
          description: 'Without it only task and request rows are listed; button lists timer rows',
        }),
      ),
      client_id: Type.Optional(Id('Client id; a template client (type plan) lists its template rows')),
      project_id: Type.Optional(Id('Project id')),
      topic_id: Type.Optional(Id('Topic id')),
      assignee_id: Type.Optional(Id('Tasks assigned to this person')),
      q: Type.Optional(Type.String({ maxLength: 255, description: 'Title contains (case-insensitive)' })),
      is_important: Type.Optional(
        Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')], {
          description: 'true/false (or 1/0)',
        }),
      ),
    },
    TASK_LIST_OPTIONS,
  ),
  ...customFieldFilterSchema,
};
/** The named filters; the custom_fields[…] ones ride along untyped (customFieldConditions reads them by pattern). */
export type TaskListParams = Static<typeof TaskListQuery>;
export type TaskListFilters = ListFilters<TaskListParams>;

export const BULK_ACTIONS = ['status', 'assignee', 'delete'] as const;
export const ASSIGNEE_MODES = ['add', 'remove', 'replace'] as const;
export const BULK_MAX_IDS = 1000;

export const BulkFilter = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(Id('Task id'), {
        minItems: 1,
        maxItems: BULK_MAX_IDS,
        uniqueItems: true,
        description: `Exactly these tasks (any kind), up to ${BULK_MAX_IDS}`,
      }),
    ),
    status: Type.Optional(
      Type.Array(Status, { minItems: 1, uniqueItems: true, description: 'Tasks in any of these statuses' }),
    ),
    client_id: Type.Optional(Id('Tasks of this client')),
    project_id: Type.Optional(Id('Tasks of this project')),
    assignee_id: Type.Optional(Id('Tasks assigned to this person')),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'Which tasks; at least one criterion. Without ids the selection is the one GET /tasks lists (task and request rows, no templates or timers)',
  },
);
export type BulkFilterBody = Static<typeof BulkFilter>;

export const BulkAction = Type.Object(
  {
    action: Literals(BULK_ACTIONS, {
      description: 'status: set status; assignee: change assignees; delete: soft delete',
    }),
    filter: BulkFilter,
    status: Type.Optional(Status),
    assignee_id: Type.Optional(Id('Required for action assignee: the person to add, remove or make the only assignee')),
    mode: Type.Optional(
      Literals(ASSIGNEE_MODES, { description: 'Required for action assignee: add, remove or replace' }),
    ),
  },
  { additionalProperties: false, title: 'TaskBulkAction' },
);
export type BulkActionBody = Static<typeof BulkAction>;
