import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { readIfMatch } from '../../platform/preconditions.ts';
import { ProductPrice, ProductPriceCreate, ProductPriceListQuery, ProductPriceUpdate } from './products.schemas.ts';
import * as service from './prices.service.ts';

const tags = ['Products'];
const entity = 'product_price';
const ProductParams = IdParam('product_id');
const PriceParams = Type.Object({ ...IdParam('product_id').properties, ...IdParam('price_id').properties });

/**
 * The path's product is looked up before the body is validated, so another tenant's product id answers 404
 * whatever the body holds. A malformed id is left to params validation (400).
 */
async function productFirst(request: FastifyRequest): Promise<void> {
  const id = Number((request.params as Record<string, unknown>).product_id);
  if (Number.isInteger(id) && id >= 1 && id <= 2147483647) await service.assertProduct(request.ctx, id);
}

export default async function priceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/products/:product_id/prices', {
      operationId: 'listProductPrices',
      summary: "List a product's prices (offset paging only)",
      tags,
      tier: 'financials',
      entity,
      errors: ['NOT_FOUND'],
      schema: {
        params: ProductParams,
        querystring: ProductPriceListQuery,
        response: { 200: OffsetOrCursorList(ProductPrice) },
      },
    }),
    handler: async (request) => service.listPrices(request.ctx, request.params.product_id, request.query),
  });

  app.route({
    ...route('POST', '/products/:product_id/prices', {
      idempotent: true,
      operationId: 'createProductPrice',
      summary: 'Add a price to a product',
      description: 'active_from defaults to 2000-01-01; one price per product, currency and active_from.',
      tags,
      tier: 'financials',
      entity,
      errors: ['NOT_FOUND', 'PRICE_EXISTS'],
      schema: { params: ProductParams, body: ProductPriceCreate, response: { 201: Single(ProductPrice) } },
    }),
    preValidation: productFirst,
    handler: async (request, reply) =>
      single(reply, await service.createPrice(request.ctx, request.params.product_id, request.body), 201),
  });

  app.route({
    ...route('GET', '/products/:product_id/prices/:price_id', {
      operationId: 'getProductPrice',
      summary: 'Get a price of a product',
      tags,
      tier: 'financials',
      entity,
      errors: ['NOT_FOUND'],
      schema: { params: PriceParams, response: { 200: Single(ProductPrice) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getPrice(request.ctx, request.params.product_id, request.params.price_id)),
  });

  app.route({
    ...route('PATCH', '/products/:product_id/prices/:price_id', {
      operationId: 'updateProductPrice',
      summary: 'Change a price (send only the fields to change)',
      description: 'An If-Match header is honoured when sent.',
      tags,
      tier: 'financials',
      entity,
      errors: ['NOT_FOUND', 'PRICE_EXISTS', 'STALE_WRITE'],
      schema: { params: PriceParams, body: ProductPriceUpdate, response: { 200: Single(ProductPrice) } },
    }),
    preValidation: productFirst,
    handler: async (request, reply) => {
      const { product_id, price_id } = request.params;
      return single(
        reply,
        await service.updatePrice(request.ctx, product_id, price_id, request.body, readIfMatch(request)),
      );
    },
  });

  app.route({
    ...route('DELETE', '/products/:product_id/prices/:price_id', {
      operationId: 'deleteProductPrice',
      summary: 'Remove a price',
      description: '409 LAST_PRICE_REQUIRED for the last price of a product that contract or invoice rows use.',
      tags,
      tier: 'financials',
      entity,
      errors: ['NOT_FOUND', 'LAST_PRICE_REQUIRED'],
      schema: { params: PriceParams, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deletePrice(request.ctx, request.params.product_id, request.params.price_id);
      return noContent(reply);
    },
  });
}
