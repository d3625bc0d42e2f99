import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { CompanyApp, CompanyAppListQuery } from './company-apps.schemas.ts';
import * as service from './company-apps.service.ts';

const tags = ['Company apps'];

export default async function companyAppRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/company/apps', {
      operationId: 'listCompanyApps',
      summary: 'The optional features (apps) the company can switch on, and which are active',
      tags,
      tier: 'read',
      schema: { querystring: CompanyAppListQuery, response: { 200: OffsetOrCursorList(CompanyApp) } },
    }),
    handler: async (request) => service.listApps(request.ctx, request.query),
  });

  // admin: switching on billing reaches financial features, and apps are company-wide settings.
  app.route({
    ...route('POST', '/company/apps/:app_id/activate', {
      idempotent: true,
      operationId: 'activateCompanyApp',
      summary: 'Switch an app on for the company (an active app is left as it is)',
      description:
        "Flips the app's feature flag, which the gated endpoints read from the next request on. " +
        "403 PLAN_UPGRADE_REQUIRED when the company's plan does not include the app. There is no deactivation through the API.",
      tags,
      tier: 'admin',
      errors: ['NOT_FOUND'],
      schema: { params: IdParam('app_id'), response: { 200: Single(CompanyApp) } },
    }),
    handler: async (request, reply) => single(reply, await service.activateApp(request.ctx, request.params.app_id)),
  });
}
