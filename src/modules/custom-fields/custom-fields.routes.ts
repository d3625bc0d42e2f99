import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  CustomField,
  CustomFieldCreate,
  CustomFieldListQuery,
  CustomFieldUpdate,
  CUSTOM_FIELD_FILTERS,
} from './custom-fields.schemas.ts';
import * as service from './custom-fields.service.ts';

const tags = ['Custom fields'];
const Params = IdParam('custom_field_id');
// Definitions are company configuration: writes are refused to a plain member's personal key.
const writes = { tags, tier: 'write', preview: true, companyConfig: true } as const;

export default async function customFieldRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/custom-fields', {
      tags,
      tier: 'read',
      preview: true,
      operationId: 'listCustomFields',
      summary: 'List custom field definitions',
      filters: CUSTOM_FIELD_FILTERS,
      schema: { querystring: CustomFieldListQuery, response: { 200: OffsetOrCursorList(CustomField) } },
    }),
    handler: async (request) => service.listCustomFields(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/custom-fields', {
      idempotent: true,
      ...writes,
      operationId: 'createCustomField',
      summary: 'Create a custom field definition',
      errors: ['CUSTOM_FIELD_EXISTS'],
      schema: { body: CustomFieldCreate, response: { 201: Single(CustomField) } },
    }),
    handler: async (request, reply) => single(reply, await service.createCustomField(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/custom-fields/:custom_field_id', {
      tags,
      tier: 'read',
      preview: true,
      operationId: 'getCustomField',
      summary: 'Get a custom field definition',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(CustomField) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getCustomField(request.ctx, request.params.custom_field_id)),
  });

  app.route({
    ...route('PATCH', '/custom-fields/:custom_field_id', {
      ...writes,
      operationId: 'updateCustomField',
      summary: 'Update a custom field (status and options; name, field_type and entity_type are immutable)',
      errors: ['NOT_FOUND', 'CUSTOM_FIELD_READ_ONLY', 'CUSTOM_FIELD_OPTION_IN_USE'],
      schema: { params: Params, body: CustomFieldUpdate, response: { 200: Single(CustomField) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateCustomField(request.ctx, request.params.custom_field_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/custom-fields/:custom_field_id', {
      ...writes,
      operationId: 'deleteCustomField',
      summary: 'Delete a custom field (soft delete); system fields cannot be deleted',
      errors: ['NOT_FOUND', 'CUSTOM_FIELD_NOT_DELETABLE'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteCustomField(request.ctx, request.params.custom_field_id);
      return noContent(reply);
    },
  });
}
