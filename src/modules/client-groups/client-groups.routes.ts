import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  ClientGroup,
  ClientGroupCreate,
  ClientGroupListQuery,
  ClientGroupUpdate,
  CLIENT_GROUP_FILTERS,
} from './client-groups.schemas.ts';
import * as service from './client-groups.service.ts';

const tags = ['Client groups'];
const Params = IdParam('client_group_id');

export default async function clientGroupRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/client-groups', {
      operationId: 'listClientGroups',
      summary: 'List client groups',
      tags,
      tier: 'read',
      filters: CLIENT_GROUP_FILTERS,
      schema: { querystring: ClientGroupListQuery, response: { 200: OffsetOrCursorList(ClientGroup) } },
    }),
    handler: async (request) => service.listClientGroups(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/client-groups', {
      idempotent: true,
      operationId: 'createClientGroup',
      summary: 'Create a client group',
      tags,
      tier: 'write',
      companyConfig: true,
      schema: { body: ClientGroupCreate, response: { 201: Single(ClientGroup) } },
    }),
    handler: async (request, reply) => single(reply, await service.createClientGroup(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/client-groups/:client_group_id', {
      operationId: 'getClientGroup',
      summary: 'Get a client group',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(ClientGroup) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getClientGroup(request.ctx, request.params.client_group_id)),
  });

  app.route({
    ...route('PATCH', '/client-groups/:client_group_id', {
      operationId: 'updateClientGroup',
      summary: 'Update a client group (send only the fields to change)',
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, body: ClientGroupUpdate, response: { 200: Single(ClientGroup) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateClientGroup(request.ctx, request.params.client_group_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/client-groups/:client_group_id', {
      operationId: 'deleteClientGroup',
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['NOT_FOUND', 'GROUP_IN_USE'],
      summary: 'Delete a client group (soft delete); refused while an active client belongs to it',
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteClientGroup(request.ctx, request.params.client_group_id);
      return noContent(reply);
    },
  });
}
