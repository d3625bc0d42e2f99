import { Type, type Static } from 'typebox';
import { EnumList, Id, Literals, mapOptional, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';
import { TASK_STATUSES, TASK_TYPES } from '../tasks/index.ts';

export const TRIGGERS = ['task_created', 'status_changed', 'due_date_reached', 'occurrence_created'] as const;
export type Trigger = (typeof TRIGGERS)[number];

const literals = <V extends string>(values: readonly V[], description: string) => Literals(values, { description });

const Trigger = literals(TRIGGERS, 'When the rule runs');
const TaskStatus = literals(TASK_STATUSES, 'Task status');
const OffsetDays = (description: string) => Type.Integer({ minimum: -3650, maximum: 3650, description });

export const MAX_CHECKLIST_ITEMS = 50;
export const MAX_NOTIFY = 20;

/** What a rule does; at least one action. Offsets count whole days from the moment of the trigger. */
export const Actions = Type.Object(
  {
    assign_person_id: Type.Optional(Id('Adds this person to the task assignees')),
    set_status: Type.Optional(TaskStatus),
    due_date_offset_days: Type.Optional(
      OffsetDays('Sets due_date to the trigger time plus this many days (due_date_reached: postpones)'),
    ),
    checklist_items: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
        minItems: 1,
        maxItems: MAX_CHECKLIST_ITEMS,
        description: 'Appended to the task checklist as open items',
      }),
    ),
    follow_up: Type.Optional(
      Type.Object(
        {
          title: Name('Title of the follow-up task, 1-255 characters'),
          due_date_offset_days: Type.Optional(OffsetDays('Its due date: the trigger time plus this many days')),
          assign_person_id: Type.Optional(Id('Its assignee; default: the assignees of the task')),
        },
        { additionalProperties: false, description: 'Creates a task with the same client, project and topic' },
      ),
    ),
    notify_person_ids: Type.Optional(
      Type.Array(Id('Person id'), {
        minItems: 1,
        maxItems: MAX_NOTIFY,
        uniqueItems: true,
        description: 'Each gets a notification about the task',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, title: 'TaskAutomationActions' },
);
export type ActionsBody = Static<typeof Actions>;

const conditionFields = {
  client_id: Nullable(Id('Only tasks of this client')),
  project_id: Nullable(Id('Only tasks of this project')),
  topic_id: Nullable(Id('Only tasks of this topic')),
  type: Nullable(literals(TASK_TYPES, 'Only tasks of this type')),
  status: Nullable(literals(TASK_STATUSES, 'Only tasks in this status at the trigger (status_changed: the new one)')),
};

const ruleFields = {
  name: Name('Rule name, 1-255 characters'),
  trigger: Trigger,
  ...conditionFields,
  actions: Actions,
  active: Type.Boolean({ description: 'Inactive rules do not run (default true)' }),
};

export const TaskAutomation = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    trigger: Trigger,
    client_id: Nullable(Type.Integer()),
    project_id: Nullable(Type.Integer()),
    topic_id: Nullable(Type.Integer()),
    type: Nullable(Type.String()),
    status: Nullable(Type.String()),
    actions: Actions,
    active: Type.Boolean(),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'TaskAutomation' },
);
export type TaskAutomationRecord = Static<typeof TaskAutomation>;

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const TaskAutomationCreate = Type.Object(
  { ...mapOptional(ruleFields), name: ruleFields.name, trigger: ruleFields.trigger, actions: ruleFields.actions },
  { additionalProperties: false, title: 'TaskAutomationCreate' },
);
export type TaskAutomationCreateBody = Static<typeof TaskAutomationCreate>;
export const TaskAutomationUpdate = Type.Object(mapOptional(ruleFields), {
  additionalProperties: false,
  title: 'TaskAutomationUpdate',
  description: 'actions, when sent, replaces the whole set',
});
export type TaskAutomationUpdateBody = Static<typeof TaskAutomationUpdate>;

export const TASK_AUTOMATION_LIST_OPTIONS: ListOptions = {
  sortable: { id: 'ta.id', name: 'ta.name', created_at: 'ta.created_at', updated_at: 'ta.updated_at' },
  defaultSort: 'id',
};
export const TASK_AUTOMATION_FILTERS = ['trigger', 'active', 'client_id'] as const;
export const TaskAutomationListQuery = listQuery(
  {
    trigger: Type.Optional(EnumList(TRIGGERS, 'Trigger filter')),
    active: Type.Optional(Type.Boolean({ description: 'true or false' })),
    client_id: Type.Optional(Id('Rules conditioned on this client')),
  },
  TASK_AUTOMATION_LIST_OPTIONS,
);
export type TaskAutomationListParams = Static<typeof TaskAutomationListQuery>;
