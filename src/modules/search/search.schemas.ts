import { Type, type Static } from 'typebox';
import { EnumList, Literals } from '../../platform/fields.ts';
import { MAX_OFFSET } from '../../platform/lists.ts';

export const SEARCH_TYPES = ['task', 'contact', 'project'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SearchHit = Type.Object(
  {
    type: Literals(SEARCH_TYPES, { description: 'task, contact or project (clients: use GET /clients?q=)' }),
    id: Type.Integer({ description: 'Id of the record, read it at /tasks/{id}, /contacts/{id} or /projects/{id}' }),
    title: Type.String({ description: 'Task title, contact full name or project name' }),
    subtitle: Type.Union([Type.String(), Type.Null()], { description: 'Task or project status; contact e-mail' }),
    client_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Client the record belongs to, if any' }),
  },
  { title: 'SearchHit' },
);
export type SearchHitRecord = Static<typeof SearchHit>;

export const SearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Text to find (contains, case-insensitive); required',
    }),
    types: Type.Optional(EnumList(SEARCH_TYPES, 'Only these kinds of record')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Page size, 1-200' })),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Rows to skip, 0-10000' }),
    ),
  },
  { additionalProperties: false },
);
export type SearchParams = Static<typeof SearchQuery>;

export const SEARCH_FILTERS = ['types'] as const;

export const SearchResult = Type.Object(
  {
    data: Type.Array(SearchHit),
    meta: Type.Object({
      total: Type.Union([Type.Integer(), Type.Literal('10000+')], { description: '"10000+" past 10000' }),
      limit: Type.Integer(),
      offset: Type.Integer(),
      has_more: Type.Boolean(),
    }),
  },
  { title: 'SearchResult' },
);
