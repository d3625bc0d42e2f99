import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  Digitization,
  DigitizationCreate,
  DigitizationListQuery,
  DIGITIZATION_FILTERS,
} from './digitizations.schemas.ts';
import * as service from './digitizations.service.ts';

const tags = ['Digitizations'];
const preview = true;

export default async function digitizationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const services = { config: fastify.config };
  app.route({
    ...route('GET', '/digitizations', {
      operationId: 'listDigitizations',
      summary: 'List digitizations',
      tags,
      tier: 'write',
      preview,
      filters: DIGITIZATION_FILTERS,
      schema: { querystring: DigitizationListQuery, response: { 200: OffsetOrCursorList(Digitization) } },
    }),
    handler: async (request) => service.listDigitizations(request.ctx, request.query),
  });
  app.route({
    ...route('POST', '/digitizations', {
      idempotent: true,
      operationId: 'createDigitization',
      summary: 'Ask for a document to be turned into structured data (a background job)',
      entity: 'digitization',
      tags,
      tier: 'write',
      preview,
      schema: { body: DigitizationCreate, response: { 201: Single(Digitization) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.createDigitization(request.ctx, request.body, services), 201),
  });
  app.route({
    ...route('GET', '/digitizations/:digitization_id', {
      operationId: 'getDigitization',
      summary: 'Get a digitization: its status and, once finished, what was extracted',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: IdParam('digitization_id'), response: { 200: Single(Digitization) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getDigitization(request.ctx, request.params.digitization_id)),
  });
}
