import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Note, NoteCreate, NoteListQuery, NoteUpdate, NOTE_FILTERS } from './notes.schemas.ts';
import * as service from './notes.service.ts';

const tags = ['Notes'];
const Params = IdParam('note_id');
// The spec's table gives notes the write tier for every verb, reads included; notes are a preview resource.
const common = { tags, tier: 'write', preview: true } as const;
const REFERENCE_ERRORS = ['INVALID_CLIENT', 'INVALID_PROJECT', 'INVALID_SUPPLIER', 'INVALID_PERSON'] as const;

export default async function noteRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/notes', {
      ...common,
      operationId: 'listNotes',
      summary: 'List notes',
      filters: NOTE_FILTERS,
      schema: { querystring: NoteListQuery, response: { 200: OffsetOrCursorList(Note) } },
    }),
    handler: async (request) => service.listNotes(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/notes', {
      idempotent: true,
      ...common,
      operationId: 'createNote',
      summary: 'Create a note on a client, project, supplier or member (comments are sanitized HTML)',
      errors: [...REFERENCE_ERRORS],
      schema: { body: NoteCreate, response: { 201: Single(Note) } },
    }),
    handler: async (request, reply) => single(reply, await service.createNote(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/notes/:note_id', {
      ...common,
      operationId: 'getNote',
      summary: 'Get a note',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Note) } },
    }),
    handler: async (request, reply) => single(reply, await service.getNote(request.ctx, request.params.note_id)),
  });

  app.route({
    ...route('PATCH', '/notes/:note_id', {
      ...common,
      operationId: 'updateNote',
      summary: 'Update a note (send only the fields to change)',
      errors: ['NOT_FOUND', ...REFERENCE_ERRORS],
      schema: { params: Params, body: NoteUpdate, response: { 200: Single(Note) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateNote(request.ctx, request.params.note_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/notes/:note_id', {
      ...common,
      operationId: 'deleteNote',
      summary: 'Delete a note (soft delete)',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteNote(request.ctx, request.params.note_id);
      return noContent(reply);
    },
  });
}
