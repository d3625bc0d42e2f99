import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  ProductField,
  ProductFieldCreate,
  ProductFieldListQuery,
  ProductFieldUpdate,
  PRODUCT_FIELD_FILTERS,
} from './product-fields.schemas.ts';
import * as service from './product-fields.service.ts';

const tags = ['Product fields'];
const Params = IdParam('product_field_id');

/**
 * Preview resource: the article, resource, cost-centre and billing-project lookups. Writes are company
 * configuration (an owner's or admin's keys, not a plain member's personal key).
 */
export default async function productFieldRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const common = { tags, preview: true } as const;
  const writes = { ...common, tier: 'write', companyConfig: true } as const;

  app.route({
    ...route('GET', '/product-fields', {
      ...common,
      operationId: 'listProductFields',
      summary: 'List product fields (filters kind, status, is_system, q)',
      tier: 'write',
      filters: PRODUCT_FIELD_FILTERS,
      schema: { querystring: ProductFieldListQuery, response: { 200: OffsetOrCursorList(ProductField) } },
    }),
    handler: async (request) => service.listProductFields(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/product-fields', {
      idempotent: true,
      ...writes,
      operationId: 'createProductField',
      summary: 'Create a product field',
      description: 'The code is unique per kind among live entries, case-insensitive (409 PRODUCT_FIELD_EXISTS).',
      errors: ['PRODUCT_FIELD_EXISTS'],
      schema: { body: ProductFieldCreate, response: { 201: Single(ProductField) } },
    }),
    handler: async (request, reply) => single(reply, await service.createProductField(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/product-fields/:product_field_id', {
      ...common,
      operationId: 'getProductField',
      summary: 'Get a product field',
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(ProductField) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getProductField(request.ctx, request.params.product_field_id)),
  });

  app.route({
    ...route('PATCH', '/product-fields/:product_field_id', {
      ...writes,
      operationId: 'updateProductField',
      summary: 'Update a product field (send only the fields to change; kind is fixed)',
      description: 'System entries are read-only (403 PRODUCT_FIELD_READ_ONLY).',
      errors: ['NOT_FOUND', 'PRODUCT_FIELD_READ_ONLY', 'PRODUCT_FIELD_EXISTS'],
      schema: { params: Params, body: ProductFieldUpdate, response: { 200: Single(ProductField) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateProductField(request.ctx, request.params.product_field_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/product-fields/:product_field_id', {
      ...writes,
      operationId: 'deleteProductField',
      summary: 'Delete a product field (soft delete)',
      description:
        'System entries are read-only (403 PRODUCT_FIELD_READ_ONLY); an entry a live product or contract row ' +
        'references is refused with 409 PRODUCT_FIELD_IN_USE (make it inactive instead).',
      errors: ['NOT_FOUND', 'PRODUCT_FIELD_READ_ONLY', 'PRODUCT_FIELD_IN_USE'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteProductField(request.ctx, request.params.product_field_id);
      return noContent(reply);
    },
  });
}
