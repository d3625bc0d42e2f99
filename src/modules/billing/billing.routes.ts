import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, route } from '../../platform/http.ts';
import { BillBody, BillResult, MissedQuery, MissedReport } from './billing.schemas.ts';
import { billClient } from './billing.engine.ts';
import { missedBilling } from './missed-billing.service.ts';

export default async function billingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('POST', '/clients/:client_id/invoices', {
      idempotent: true,
      operationId: 'billClient',
      summary: 'Run the billing engine for a client: draft invoices for unbilled time and periodic fees',
      description:
        'One draft per active contract with anything unbilled in its period (default: the latest period whose ' +
        'invoice day has come; or date_from..date_to). Time entries and fee periods are billed once: a second run ' +
        'creates nothing and says why per contract. 201 when invoices were created, 200 when none.',
      tags: ['Clients', 'Invoices'],
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: IdParam('client_id'), body: BillBody, response: { 200: BillResult, 201: BillResult } },
    }),
    handler: async (request, reply) => {
      const result = await billClient(request.ctx, request.params.client_id, request.body ?? {});
      reply.code(result.invoices.length > 0 ? 201 : 200);
      return { data: result };
    },
  });

  app.route({
    ...route('GET', '/missed-billing', {
      operationId: 'getMissedBilling',
      summary: 'Billable work and periodic fees of contracted clients that were not invoiced',
      description:
        'Needs financials, an administrator (an integration key with the admin scope, or a personal key of an ' +
        'admin or owner) and the billing feature. Only periods whose invoice day has come are listed.',
      tags: ['Invoices', 'Reports'],
      tier: 'financials',
      errors: ['FORBIDDEN'],
      filters: ['client_id', 'date_from', 'date_to'],
      schema: { querystring: MissedQuery, response: { 200: MissedReport } },
    }),
    handler: async (request) => missedBilling(request.ctx, request.query),
  });
}
