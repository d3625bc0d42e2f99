import { Type, type Static } from 'typebox';
import { Id, IdList, mapOptional, Name, Nullable, Text, Timestamp } from '../../platform/fields.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

const teamFields = {
  name: Name('Team name, 1-255 characters'),
  description: Text('Free text about the team', 5000),
  lead_id: Nullable(Id('Person id of the team lead; a person of this company')),
  member_ids: IdList('Person ids of the team members; on PATCH the list replaces the whole list'),
};

export const Team = Type.Object(
  {
    id: Type.Integer(),
    name: teamFields.name,
    description: teamFields.description,
    lead_id: Nullable(Type.Integer({ description: 'Person id of the team lead' })),
    member_ids: Type.Array(Type.Integer(), { description: 'Person ids of the members, ascending' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Team' },
);
export type TeamRecord = Static<typeof Team>;

export const TeamCreate = Type.Object(
  { ...mapOptional(teamFields), name: teamFields.name },
  { additionalProperties: false, title: 'TeamCreate' },
);
export type TeamCreateBody = Static<typeof TeamCreate>;
export const TeamUpdate = Type.Object(mapOptional(teamFields), { additionalProperties: false, title: 'TeamUpdate' });
export type TeamUpdateBody = Static<typeof TeamUpdate>;

// Teams are not in the spec's cursor list: offset-only.
export const TEAM_LIST_OPTIONS: ListOptions = {
  cursor: false,
  sortable: { id: 't.id', name: 't.name', created_at: 't.created_at', updated_at: 't.updated_at' },
  defaultSort: 'id',
};
export const TEAM_FILTERS = ['q'] as const;
export const TeamListQuery = listQuery(
  {
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  TEAM_LIST_OPTIONS,
);
export type TeamListParams = Static<typeof TeamListQuery>;
