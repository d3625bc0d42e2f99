import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp, Literals } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const ManagerPut = Type.Object(
  { person_id: Nullable(Id('The new manager (an active or limited company member), or null for none')) },
  { additionalProperties: false, title: 'ClientManagerPut' },
);
export type ManagerPutBody = Static<typeof ManagerPut>;

export const ClientManager = Type.Object(
  {
    client_id: Type.Integer(),
    person_id: Nullable(Type.Integer({ description: "The client's manager (its default_person_id)" })),
    updated_at: Timestamp("The client's version after the change"),
  },
  { title: 'ClientManager' },
);

export const MAX_MEMBER_ROLES = 200;

const MemberRoleIn = Type.Object(
  {
    person_id: Id('A company member; becomes a member of the client if not one already'),
    workflow_role_id: Nullable(Id('The workflow role the person holds on the client, or null')),
  },
  { additionalProperties: false },
);

export const MemberRolesPut = Type.Object(
  {
    members: Type.Array(MemberRoleIn, {
      maxItems: MAX_MEMBER_ROLES,
      description: `The whole set (up to ${MAX_MEMBER_ROLES}); members left out keep their membership but lose their workflow role`,
    }),
  },
  { additionalProperties: false, title: 'ClientMemberRolesPut' },
);
export type MemberRolesPutBody = Static<typeof MemberRolesPut>;

export const MemberRoles = Type.Object(
  {
    client_id: Type.Integer(),
    members: Type.Array(
      Type.Object({
        client_member_id: Type.Integer(),
        person_id: Type.Integer(),
        workflow_role_id: Nullable(Type.Integer()),
      }),
      { description: "The client's live members, by person id" },
    ),
  },
  { title: 'ClientMemberRoles' },
);
export type MemberRolesRecord = Static<typeof MemberRoles>;

export const WorkflowTask = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    status: Type.String(),
    type: Type.String(),
    project_id: Nullable(Type.Integer()),
    date: Nullable(Type.String({ format: 'date-time' })),
    due_date: Nullable(Type.String({ format: 'date-time' })),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
    workflow_role_ids: Type.Array(Type.Integer()),
    assignees: Type.Array(Type.Integer()),
    role_holder_ids: Type.Array(Type.Integer(), {
      description: "Members of the client holding one of the task's workflow roles (see member-roles)",
    }),
    template_id: Nullable(Type.Integer({ description: 'The workflow template or project workflow it came from' })),
    master_task_id: Nullable(Type.Integer({ description: 'The template (master) task it was made from' })),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ClientWorkflowTask' },
);
export type WorkflowTaskRecord = Static<typeof WorkflowTask>;

export const WORKFLOW_TASK_LIST_OPTIONS = {
  sortable: { id: 't.id', created_at: 't.created_at', updated_at: 't.updated_at' },
  defaultSort: 'id',
  cursor: false,
};
export const WORKFLOW_TASK_FILTERS = ['status', 'template_id'] as const;
export const WorkflowTaskListQuery = listQuery(
  {
    status: Type.Optional(
      Type.String({ pattern: '^[a-z_]+(,[a-z_]+)*$', maxLength: 100, description: 'Comma list of statuses' }),
    ),
    template_id: Type.Optional(Id('Only tasks made from this workflow template or project workflow')),
  },
  WORKFLOW_TASK_LIST_OPTIONS,
);

export const BULK_MEMBER_ACTIONS = ['add', 'remove', 'replace'] as const;
export const MAX_BULK_CLIENTS = 1000;

export const BulkMemberAction = Type.Object(
  {
    action: Literals(BULK_MEMBER_ACTIONS, {
      description:
        'add: make person_id a member (or set its workflow role); remove: end its membership; ' +
        'replace: where from_person_id is a member, person_id takes its place and role',
    }),
    person_id: Id('The person to add or remove, or who takes over for replace'),
    from_person_id: Type.Optional(Id('replace only: the member being replaced')),
    workflow_role_id: Type.Optional(
      Nullable(Id('add and replace: the workflow role to hold (replace: default is the replaced member’s role)')),
    ),
    client_ids: Type.Array(Id('Client id'), {
      minItems: 1,
      maxItems: MAX_BULK_CLIENTS,
      uniqueItems: true,
      description: `The clients, up to ${MAX_BULK_CLIENTS}`,
    }),
  },
  { additionalProperties: false, title: 'ClientBulkMemberAction' },
);
export type BulkMemberActionBody = Static<typeof BulkMemberAction>;
export type WorkflowTaskListParams = Static<typeof WorkflowTaskListQuery>;
