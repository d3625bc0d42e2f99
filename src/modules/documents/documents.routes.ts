import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Document, DocumentCreate, DocumentListQuery, DocumentUpdate, DOCUMENT_FILTERS } from './documents.schemas.ts';
import * as service from './documents.service.ts';

const tags = ['Documents'];
const preview = true;
const Params = IdParam('document_id');

export default async function documentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...route('GET', '/documents', {
      operationId: 'listDocuments',
      summary: 'List documents',
      tags,
      tier: 'write',
      preview,
      filters: DOCUMENT_FILTERS,
      schema: { querystring: DocumentListQuery, response: { 200: OffsetOrCursorList(Document) } },
    }),
    handler: async (request) => service.listDocuments(request.ctx, request.query),
  });
  app.route({
    ...route('POST', '/documents', {
      idempotent: true,
      operationId: 'createDocument',
      summary: 'Create a document record for a client',
      tags,
      tier: 'write',
      preview,
      errors: ['INVALID_CLIENT'],
      schema: { body: DocumentCreate, response: { 201: Single(Document) } },
    }),
    handler: async (request, reply) => single(reply, await service.createDocument(request.ctx, request.body), 201),
  });
  app.route({
    ...route('GET', '/documents/:document_id', {
      operationId: 'getDocument',
      summary: 'Get a document',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Document) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getDocument(request.ctx, request.params.document_id)),
  });
  app.route({
    ...route('PATCH', '/documents/:document_id', {
      operationId: 'updateDocument',
      summary: 'Update a document (send only the fields to change)',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: Params, body: DocumentUpdate, response: { 200: Single(Document) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateDocument(request.ctx, request.params.document_id, request.body)),
  });
  app.route({
    ...route('DELETE', '/documents/:document_id', {
      operationId: 'deleteDocument',
      summary: 'Delete a document (soft delete)',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteDocument(request.ctx, request.params.document_id);
      return noContent(reply);
    },
  });
}
