import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Client, ClientCreate, ClientListQuery, ClientUpdate, CLIENT_FILTERS } from './clients.schemas.ts';
import * as service from './clients.service.ts';

const tags = ['Clients'];
const Params = IdParam('client_id');

export default async function clientRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/clients', {
      operationId: 'listClients',
      summary: 'List clients',
      tags,
      tier: 'read',
      filters: CLIENT_FILTERS,
      schema: { querystring: ClientListQuery, response: { 200: OffsetOrCursorList(Client) } },
    }),
    handler: async (request) => service.listClients(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/clients', {
      idempotent: true,
      operationId: 'createClient',
      summary: 'Create a client',
      tags,
      tier: 'write',
      errors: ['INVALID_PERSON', 'INVALID_CLIENT'],
      schema: { body: ClientCreate, response: { 201: Single(Client) } },
    }),
    handler: async (request, reply) => single(reply, await service.createClient(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/clients/:client_id', {
      operationId: 'getClient',
      summary: 'Get a client with its contacts',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Client) } },
    }),
    handler: async (request, reply) => single(reply, await service.getClient(request.ctx, request.params.client_id)),
  });

  app.route({
    ...route('PATCH', '/clients/:client_id', {
      operationId: 'updateClient',
      summary: 'Update a client (send only the fields to change)',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'READ_ONLY', 'INVALID_PERSON', 'INVALID_CLIENT'],
      schema: { params: Params, body: ClientUpdate, response: { 200: Single(Client) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateClient(request.ctx, request.params.client_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/clients/:client_id', {
      operationId: 'deleteClient',
      summary: 'Delete a client (soft delete)',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'READ_ONLY'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteClient(request.ctx, request.params.client_id);
      return noContent(reply);
    },
  });
}
