import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { requireIfMatch } from '../../platform/preconditions.ts';
import { Tax, TaxCreate, TaxListQuery, TaxUpdate, TAX_FILTERS, TAX_MONEY } from './taxes.schemas.ts';
import * as service from './taxes.service.ts';

const tags = ['Taxes'];
const Params = IdParam('tax_id');

export default async function taxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/taxes', {
      operationId: 'listTaxes',
      summary: 'List taxes (offset paging only)',
      tags,
      tier: 'financials',
      filters: TAX_FILTERS,
      schema: { querystring: TaxListQuery, response: { 200: OffsetOrCursorList(Tax) } },
    }),
    handler: async (request) => service.listTaxes(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/taxes', {
      idempotent: true,
      operationId: 'createTax',
      summary: 'Create a tax',
      description: 'Send rate (a fraction, 0.22) or percent (22), or both agreeing.',
      tags,
      tier: 'financials',
      schema: { body: TaxCreate, response: { 201: Single(Tax) } },
    }),
    handler: async (request, reply) => single(reply, await service.createTax(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/taxes/:tax_id', {
      operationId: 'getTax',
      summary: 'Get a tax',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Tax) } },
    }),
    handler: async (request, reply) => single(reply, await service.getTax(request.ctx, request.params.tax_id)),
  });

  app.route({
    ...route('PATCH', '/taxes/:tax_id', {
      operationId: 'updateTax',
      summary: 'Update a tax (send only the fields to change); taxes cannot be deleted, set status inactive',
      description:
        'name and status are write-tier; rate and percent need an admin key (403 FINANCIAL_SCOPE_REQUIRED) and ' +
        'If-Match carrying the ETag of the last read. A key without financials reads rate and percent as null.',
      tags,
      tier: 'write',
      financial: true,
      money: TAX_MONEY,
      errors: ['NOT_FOUND', 'PRECONDITION_REQUIRED', 'STALE_WRITE'],
      schema: { params: Params, body: TaxUpdate, response: { 200: Single(Tax) } },
    }),
    handler: async (request, reply) =>
      single(
        reply,
        await service.updateTax(request.ctx, request.params.tax_id, request.body, () => requireIfMatch(request)),
      ),
  });
}
