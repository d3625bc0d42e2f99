import { Type, type Static } from 'typebox';
import { Color, mapOptional, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

export const MAX_SORT_ORDER = 1_000_000;

const roleFields = {
  name: Name('Workflow role name, 1-255 characters'),
  color: Nullable(Color),
  sort_order: Type.Integer({
    minimum: 0,
    maximum: MAX_SORT_ORDER,
    description: 'Position in lists (ascending); default: one after the current highest',
  }),
};

export const WorkflowRole = Type.Object(
  {
    id: Type.Integer(),
    ...roleFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'WorkflowRole' },
);
export type WorkflowRoleRecord = Static<typeof WorkflowRole>;

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const WorkflowRoleCreate = Type.Object(
  { ...mapOptional(roleFields), name: roleFields.name },
  { additionalProperties: false, title: 'WorkflowRoleCreate' },
);
export type WorkflowRoleCreateBody = Static<typeof WorkflowRoleCreate>;
export const WorkflowRoleUpdate = Type.Object(mapOptional(roleFields), {
  additionalProperties: false,
  title: 'WorkflowRoleUpdate',
});
export type WorkflowRoleUpdateBody = Static<typeof WorkflowRoleUpdate>;

/**
 * The spec refuses `sort` on this list and makes it offset-only with a default limit of 100. The query
 * schema gets no sortable fields (so `sort` is an unknown parameter); the fixed order is for paginate only.
 */
const QUERY_OPTIONS: ListOptions = { cursor: false, defaultLimit: 100 };
export const WORKFLOW_ROLE_LIST_OPTIONS: ListOptions = {
  ...QUERY_OPTIONS,
  sortable: { sort_order: 'w.sort_order' },
  defaultSort: 'sort_order',
};
export const WorkflowRoleListQuery = listQuery({}, QUERY_OPTIONS);
export type WorkflowRoleListParams = Static<typeof WorkflowRoleListQuery>;
