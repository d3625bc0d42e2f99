import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { readIfMatch } from '../../platform/preconditions.ts';
import {
  InvoiceSeller,
  InvoiceSellerCreate,
  InvoiceSellerListQuery,
  InvoiceSellerUpdate,
  SELLER_FILTERS,
  SELLER_MONEY,
} from './invoice-sellers.schemas.ts';
import * as service from './invoice-sellers.service.ts';

const tags = ['Invoice sellers'];
const Params = IdParam('invoice_seller_id');

export default async function invoiceSellerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/invoice-sellers', {
      operationId: 'listInvoiceSellers',
      summary: 'List invoice sellers',
      tags,
      tier: 'financials',
      filters: SELLER_FILTERS,
      schema: { querystring: InvoiceSellerListQuery, response: { 200: OffsetOrCursorList(InvoiceSeller) } },
    }),
    handler: async (request) => service.listSellers(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/invoice-sellers', {
      idempotent: true,
      operationId: 'createInvoiceSeller',
      summary: 'Create an invoice seller',
      tags,
      tier: 'financials',
      schema: { body: InvoiceSellerCreate, response: { 201: Single(InvoiceSeller) } },
    }),
    handler: async (request, reply) => single(reply, await service.createSeller(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/invoice-sellers/:invoice_seller_id', {
      operationId: 'getInvoiceSeller',
      summary: 'Get an invoice seller',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(InvoiceSeller) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getSeller(request.ctx, request.params.invoice_seller_id)),
  });

  app.route({
    ...route('PATCH', '/invoice-sellers/:invoice_seller_id', {
      operationId: 'updateInvoiceSeller',
      summary: 'Update an invoice seller (send only the fields to change); archive with status archived',
      description:
        'status and logo_url are write-tier; name, address, company_number, vat_number, bank_1, bank_2, iban_1 and ' +
        'iban_2 need admin (403 FINANCIAL_SCOPE_REQUIRED). An If-Match header is honoured when sent (412 STALE_WRITE ' +
        'when the seller changed). A key without financials reads the profile fields but name as null.',
      tags,
      tier: 'write',
      financial: true,
      money: SELLER_MONEY,
      errors: ['NOT_FOUND', 'STALE_WRITE'],
      schema: { params: Params, body: InvoiceSellerUpdate, response: { 200: Single(InvoiceSeller) } },
    }),
    handler: async (request, reply) =>
      single(
        reply,
        await service.updateSeller(request.ctx, request.params.invoice_seller_id, request.body, readIfMatch(request)),
      ),
  });
}
