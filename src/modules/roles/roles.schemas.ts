import { Type, type Static } from 'typebox';
import { Name, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

const roleFields = {
  name: Name('Job title, 1-255 characters'),
};

export const Role = Type.Object(
  {
    id: Type.Integer(),
    ...roleFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Role' },
);
export type RoleRecord = Static<typeof Role>;

export const RoleCreate = Type.Object(roleFields, { additionalProperties: false, title: 'RoleCreate' });
export type RoleCreateBody = Static<typeof RoleCreate>;
export const RoleUpdate = Type.Object(
  { name: Type.Optional(roleFields.name) },
  { additionalProperties: false, title: 'RoleUpdate' },
);
export type RoleUpdateBody = Static<typeof RoleUpdate>;

/** Offset-only, default limit 100, and no `sort` parameter (the spec refuses it here): ordered by id. */
export const ROLE_LIST_OPTIONS: ListOptions = { cursor: false, defaultLimit: 100 };
export const RoleListQuery = listQuery({}, ROLE_LIST_OPTIONS);
export type RoleListParams = Static<typeof RoleListQuery>;
