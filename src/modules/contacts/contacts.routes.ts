import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Contact, ContactCreate, ContactListQuery, ContactUpdate, CONTACT_FILTERS } from './contacts.schemas.ts';
import * as service from './contacts.service.ts';

const tags = ['Contacts'];
const Params = IdParam('contact_id');

export default async function contactRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/contacts', {
      operationId: 'listContacts',
      summary: 'List contacts',
      tags,
      tier: 'read',
      filters: CONTACT_FILTERS,
      schema: { querystring: ContactListQuery, response: { 200: OffsetOrCursorList(Contact) } },
    }),
    handler: async (request) => service.listContacts(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/contacts', {
      idempotent: true,
      operationId: 'createContact',
      summary: 'Create a contact of a client',
      tags,
      tier: 'write',
      errors: ['INVALID_CLIENT'],
      schema: { body: ContactCreate, response: { 201: Single(Contact) } },
    }),
    handler: async (request, reply) => single(reply, await service.createContact(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/contacts/:contact_id', {
      operationId: 'getContact',
      summary: 'Get a contact',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Contact) } },
    }),
    handler: async (request, reply) => single(reply, await service.getContact(request.ctx, request.params.contact_id)),
  });

  app.route({
    ...route('PATCH', '/contacts/:contact_id', {
      operationId: 'updateContact',
      summary: 'Update a contact',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'INVALID_CLIENT'],
      schema: { params: Params, body: ContactUpdate, response: { 200: Single(Contact) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateContact(request.ctx, request.params.contact_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/contacts/:contact_id', {
      operationId: 'deleteContact',
      summary: 'Delete a contact (soft delete)',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteContact(request.ctx, request.params.contact_id);
      return noContent(reply);
    },
  });
}
