import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { route, Single, single } from '../../platform/http.ts';
import { readIfMatch } from '../../platform/preconditions.ts';
import { BillingSettings, BillingSettingsUpdate } from './billing-settings.schemas.ts';
import * as service from './billing-settings.service.ts';

const tags = ['Billing settings'];

export default async function billingSettingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/company/billing-settings', {
      operationId: 'getBillingSettings',
      summary: "The company's billing settings (defaults until first changed)",
      tags,
      tier: 'financials',
      schema: { response: { 200: Single(BillingSettings) } },
    }),
    handler: async (request, reply) => single(reply, await service.getBillingSettings(request.ctx)),
  });

  app.route({
    ...route('PATCH', '/company/billing-settings', {
      operationId: 'updateBillingSettings',
      summary: 'Change billing settings (send only the fields to change)',
      description:
        'default_seller_id must name an active invoice seller. An If-Match header is honoured when sent ' +
        '(412 STALE_WRITE when the settings changed since the read).',
      tags,
      tier: 'financials',
      errors: ['INVALID_SELLER', 'STALE_WRITE'],
      schema: { body: BillingSettingsUpdate, response: { 200: Single(BillingSettings) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateBillingSettings(request.ctx, request.body, readIfMatch(request))),
  });
}
