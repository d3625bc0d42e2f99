import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { readIfMatch } from '../../platform/preconditions.ts';
import {
  MONEY_FIELDS,
  MONEY_WRITABLE,
  Product,
  ProductCreate,
  ProductListQuery,
  ProductUpdate,
  PRODUCT_FILTERS,
} from './products.schemas.ts';
import * as service from './products.service.ts';

const tags = ['Products'];
const Params = IdParam('product_id');
const nulled = `Without the financials tier (admin keys) ${MONEY_FIELDS.filter((f) => f !== 'prices').join(', ')} read as null and prices as [].`;

export default async function productRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/products', {
      operationId: 'listProducts',
      summary: 'List products',
      description: nulled,
      tags,
      tier: 'read',
      filters: PRODUCT_FILTERS,
      schema: { querystring: ProductListQuery, response: { 200: OffsetOrCursorList(Product) } },
    }),
    handler: async (request) => service.listProducts(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/products', {
      idempotent: true,
      operationId: 'createProduct',
      summary: 'Create a product (prices are added with POST /products/{product_id}/prices)',
      tags,
      tier: 'admin',
      errors: ['INVALID_TAX', 'INVALID_ARTICLE', 'INVALID_RESOURCE', 'INVALID_BILLING_PROJECT'],
      schema: { body: ProductCreate, response: { 201: Single(Product) } },
    }),
    handler: async (request, reply) => single(reply, await service.createProduct(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/products/:product_id', {
      operationId: 'getProduct',
      summary: 'Get a product with its prices',
      description: nulled,
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Product) } },
    }),
    handler: async (request, reply) => single(reply, await service.getProduct(request.ctx, request.params.product_id)),
  });

  app.route({
    ...route('PATCH', '/products/:product_id', {
      operationId: 'updateProduct',
      summary: 'Update a product (send only the fields to change); status inactive retires it',
      description:
        'The money-bearing fields need the financials tier (admin keys): 403 FINANCIAL_SCOPE_REQUIRED names them. ' +
        'An If-Match header is honoured when sent.',
      tags,
      tier: 'write',
      companyConfig: true,
      // Reads null them in the service (every read of a product, not only this answer).
      money: { write: MONEY_WRITABLE },
      errors: [
        'NOT_FOUND',
        'INVALID_TAX',
        'INVALID_ARTICLE',
        'INVALID_RESOURCE',
        'INVALID_BILLING_PROJECT',
        'STALE_WRITE',
      ],
      schema: { params: Params, body: ProductUpdate, response: { 200: Single(Product) } },
    }),
    handler: async (request, reply) =>
      single(
        reply,
        await service.updateProduct(request.ctx, request.params.product_id, request.body, readIfMatch(request)),
      ),
  });

  app.route({
    ...route('DELETE', '/products/:product_id', {
      operationId: 'deleteProduct',
      summary: 'Delete a product (soft delete)',
      description: '409 PRODUCT_IN_USE while a row of a live contract or any invoice row references it.',
      tags,
      tier: 'admin',
      errors: ['NOT_FOUND', 'PRODUCT_IN_USE'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteProduct(request.ctx, request.params.product_id);
      return noContent(reply);
    },
  });
}
