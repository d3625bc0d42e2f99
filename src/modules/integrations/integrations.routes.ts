import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Job } from '../jobs/index.ts';
import {
  INTEGRATION_INVOICE_FILTERS,
  IntegrationInvoice,
  IntegrationInvoiceListQuery,
  SyncRequest,
} from './integrations.schemas.ts';
import * as service from './integrations.service.ts';

const tags = ['Integrations'];

export default async function integrationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/integrations/invoices', {
      operationId: 'listIntegrationInvoices',
      summary: 'Invoices ready for an accounting system (created, sent or paid, not exported yet)',
      description:
        'Offset paging only. Read rows and documents with GET /invoices/{id}; POST /invoices/{id}/export marks ' +
        'an invoice exported, which takes it off this list.',
      tags,
      tier: 'financials',
      filters: INTEGRATION_INVOICE_FILTERS,
      schema: { querystring: IntegrationInvoiceListQuery, response: { 200: OffsetOrCursorList(IntegrationInvoice) } },
    }),
    handler: async (request) => service.listReadyInvoices(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/integrations/reference-data/sync', {
      idempotent: true,
      operationId: 'syncReferenceData',
      summary: 'Queue a reference-data sync (taxes, products, invoice sellers, clients) as a background job',
      description:
        'Answers 202 with the job (type reference_data_sync); follow it at GET /jobs/{id}. With no accounting ' +
        'system connected nothing is sent: the job records what it would send (counts and ids per entity).',
      tags,
      tier: 'financials',
      schema: { body: SyncRequest, response: { 202: Single(Job) } },
    }),
    // The body is optional: no body at all means the default (sync everything), as an empty object does.
    preValidation: async (request) => {
      if (request.body === undefined) request.body = {};
    },
    handler: async (request, reply) => single(reply, await service.startSync(request.ctx, request.body), 202),
  });
}
