import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  ClientMember,
  ClientMemberCreate,
  ClientMemberListQuery,
  ClientMemberUpdate,
  CLIENT_MEMBER_FILTERS,
} from './client-members.schemas.ts';
import * as service from './client-members.service.ts';

const tags = ['Client members'];
const Params = IdParam('client_member_id');

// The spec gives the whole resource the write scope, reads included.
export default async function clientMemberRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/client-members', {
      operationId: 'listClientMembers',
      summary: 'List client members (offset-only)',
      tags,
      tier: 'write',
      preview: true,
      filters: CLIENT_MEMBER_FILTERS,
      schema: { querystring: ClientMemberListQuery, response: { 200: OffsetOrCursorList(ClientMember) } },
    }),
    handler: async (request) => service.listClientMembers(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/client-members', {
      idempotent: true,
      operationId: 'createClientMember',
      summary: 'Add a person to a client',
      tags,
      tier: 'write',
      preview: true,
      errors: ['INVALID_CLIENT', 'INVALID_PERSON', 'INVALID_WORKFLOW_ROLE', 'CLIENT_MEMBER_EXISTS'],
      schema: { body: ClientMemberCreate, response: { 201: Single(ClientMember) } },
    }),
    handler: async (request, reply) => single(reply, await service.createClientMember(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/client-members/:client_member_id', {
      operationId: 'getClientMember',
      summary: 'Get a client member',
      tags,
      tier: 'write',
      preview: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(ClientMember) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getClientMember(request.ctx, request.params.client_member_id)),
  });

  app.route({
    ...route('PATCH', '/client-members/:client_member_id', {
      operationId: 'updateClientMember',
      summary: 'Update a client member',
      tags,
      tier: 'write',
      preview: true,
      errors: ['NOT_FOUND', 'INVALID_CLIENT', 'INVALID_PERSON', 'INVALID_WORKFLOW_ROLE', 'CLIENT_MEMBER_EXISTS'],
      schema: { params: Params, body: ClientMemberUpdate, response: { 200: Single(ClientMember) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateClientMember(request.ctx, request.params.client_member_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/client-members/:client_member_id', {
      operationId: 'deleteClientMember',
      summary: 'Remove a person from a client (soft delete)',
      tags,
      tier: 'write',
      preview: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteClientMember(request.ctx, request.params.client_member_id);
      return noContent(reply);
    },
  });
}
