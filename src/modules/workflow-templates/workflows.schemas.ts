import { Type, type Static } from 'typebox';
import { Id, IdList, mapOptional, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

/** The two engines share one model; `kind` is what tasks.template_kind calls their master rows. */
export type WorkflowKind = 'workflow_template' | 'project_workflow';

const Description = Type.String({ maxLength: 10_000, description: 'Free text, up to 10000 characters' });

const common = {
  id: Type.Integer(),
  name: Name('Name, 1-255 characters'),
  description: Description,
  task_count: Type.Integer({ description: 'Live master tasks' }),
  applied_client_count: Type.Integer({ description: 'Clients it has been applied to' }),
  created_at: Timestamp('Creation time (UTC)'),
  updated_at: Timestamp('Last change (UTC)'),
};

export const WorkflowTemplate = Type.Object(
  { ...common, client_id: Type.Integer({ description: 'The template (plan) client its master tasks hang off' }) },
  { title: 'WorkflowTemplate' },
);
export const ProjectWorkflow = Type.Object(
  { ...common, project_type_id: Type.Integer({ description: 'Type of the project each apply creates' }) },
  { title: 'ProjectWorkflow' },
);
/** Both shapes as the repository reads them; the routes' schemas drop what their resource does not show. */
export type TemplateRecord = Static<typeof WorkflowTemplate> & Static<typeof ProjectWorkflow>;

export const WorkflowTemplateCreate = Type.Object(
  { name: common.name, description: Type.Optional(Description) },
  { additionalProperties: false, title: 'WorkflowTemplateCreate' },
);
export const WorkflowTemplateUpdate = Type.Object(mapOptional({ name: common.name, description: Description }), {
  additionalProperties: false,
  title: 'WorkflowTemplateUpdate',
});
export const ProjectWorkflowCreate = Type.Object(
  { name: common.name, description: Type.Optional(Description), project_type_id: Id('Project type') },
  { additionalProperties: false, title: 'ProjectWorkflowCreate' },
);
export const ProjectWorkflowUpdate = Type.Object(
  mapOptional({ name: common.name, description: Description, project_type_id: Id('Project type') }),
  { additionalProperties: false, title: 'ProjectWorkflowUpdate' },
);
export interface TemplateInput {
  name?: string;
  description?: string;
  project_type_id?: number;
}

const masterFields = {
  title: Name('Title, 1-255 characters'),
  description: Description,
  type: Type.Union([Type.Literal('task'), Type.Literal('request')], { description: 'task (default) or request' }),
  topic_id: Nullable(Id('Topic')),
  is_important: Type.Boolean(),
  is_extra: Type.Boolean(),
  estimation: Nullable(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Seconds' })),
  workflow_role_ids: Type.Array(Id('Workflow role'), { uniqueItems: true, maxItems: 50 }),
  due_in_days: Nullable(
    Type.Integer({
      minimum: 0,
      maximum: 3650,
      description: 'Instances are due this many days after the day they are applied (company time); null: no due date',
    }),
  ),
};

export const MasterTask = Type.Object(
  {
    id: Type.Integer({ description: 'The master row (a task row of the template)' }),
    template_id: Type.Integer(),
    ...masterFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'WorkflowMasterTask' },
);
export type MasterTaskRecord = Static<typeof MasterTask>;
export const MasterTaskCreate = Type.Object(
  { ...mapOptional(masterFields), title: masterFields.title },
  { additionalProperties: false, title: 'WorkflowMasterTaskCreate' },
);
export const MasterTaskUpdate = Type.Object(mapOptional(masterFields), {
  additionalProperties: false,
  title: 'WorkflowMasterTaskUpdate',
});
export type MasterTaskInput = Static<typeof MasterTaskUpdate>;

export const CLIENT_STATUSES = ['active', 'inactive', 'prospect'] as const;
export const ApplyBody = Type.Object(
  {
    client_ids: Type.Optional(
      Type.Array(Id('Client'), { minItems: 1, maxItems: 500, uniqueItems: true, description: 'Clients to apply to' }),
    ),
    filter: Type.Optional(
      Type.Object(
        {
          status: Type.Optional(
            Type.Array(Type.Union(CLIENT_STATUSES.map((s) => Type.Literal(s))), { minItems: 1, uniqueItems: true }),
          ),
          group_id: Type.Optional(Id('Clients of this client group')),
          q: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Name contains' })),
        },
        { additionalProperties: false, description: 'Selects the clients instead of client_ids' },
      ),
    ),
    replace: Type.Optional(
      Type.Boolean({
        description: 'Tear down the instances of other templates of the same engine first (untouched tasks only)',
      }),
    ),
  },
  { additionalProperties: false, title: 'WorkflowApply' },
);
export type ApplyInput = Static<typeof ApplyBody>;

export const PushBody = Type.Object(
  { client_ids: Type.Optional(IdList('Only these applied clients (default: every applied client)')) },
  { additionalProperties: false, title: 'WorkflowPush' },
);
export type PushInput = Static<typeof PushBody>;

export const TEMPLATE_LIST_OPTIONS: ListOptions = {
  cursor: false,
  sortable: { id: 'w.id', name: 'w.name', created_at: 'w.created_at', updated_at: 'w.updated_at' },
  defaultSort: 'id',
};
export const TEMPLATE_FILTERS = ['q'] as const;
export const TemplateListQuery = listQuery(
  { q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })) },
  TEMPLATE_LIST_OPTIONS,
);
export type TemplateListParams = Static<typeof TemplateListQuery>;
export const MASTER_LIST_OPTIONS: ListOptions = {
  cursor: false,
  sortable: { id: 't.id', title: 't.title' },
  defaultSort: 'id',
};
export const MasterListQuery = listQuery({}, MASTER_LIST_OPTIONS);
export type MasterListParams = Static<typeof MasterListQuery>;
