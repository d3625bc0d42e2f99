import { Type, type Static } from 'typebox';
import { Id, mapOptional, Nullable, Text, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

const memberFields = {
  client_id: Id('Client the person belongs to'),
  person_id: Id('Person (a member of the company)'),
  role: Text('Free-text role of the person on this client'),
  workflow_role_id: Nullable(Id('Workflow role the person holds on this client (see /workflow-roles)')),
};

export const ClientMember = Type.Object(
  {
    id: Type.Integer(),
    ...memberFields,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ClientMember' },
);
export type ClientMemberRecord = Static<typeof ClientMember>;

export const ClientMemberCreate = Type.Object(
  { ...mapOptional(memberFields), client_id: memberFields.client_id, person_id: memberFields.person_id },
  { additionalProperties: false, title: 'ClientMemberCreate' },
);
export type ClientMemberCreateBody = Static<typeof ClientMemberCreate>;
export const ClientMemberUpdate = Type.Object(mapOptional(memberFields), {
  additionalProperties: false,
  title: 'ClientMemberUpdate',
});
export type ClientMemberUpdateBody = Static<typeof ClientMemberUpdate>;

export const CLIENT_MEMBER_LIST_OPTIONS = {
  sortable: { id: 'cm.id', created_at: 'cm.created_at', updated_at: 'cm.updated_at' },
  defaultSort: 'id',
  cursor: false,
};
export const CLIENT_MEMBER_FILTERS = ['client_id', 'person_id', 'role', 'workflow_role_id'] as const;
export const ClientMemberListQuery = listQuery(
  {
    client_id: Type.Optional(Id('Client id')),
    person_id: Type.Optional(Id('Person id')),
    role: Type.Optional(Type.String({ maxLength: 255, description: 'Exact role' })),
    workflow_role_id: Type.Optional(Id('Workflow role id')),
  },
  CLIENT_MEMBER_LIST_OPTIONS,
);
export type ClientMemberListParams = Static<typeof ClientMemberListQuery>;
