import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, route, Single, single } from '../../platform/http.ts';
import { Job } from './jobs.schemas.ts';
import * as service from './jobs.service.ts';

export default async function jobRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/jobs/:job_id', {
      operationId: 'getJob',
      summary: 'Get a background job and its progress',
      tags: ['Jobs'],
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: IdParam('job_id'), response: { 200: Single(Job) } },
    }),
    handler: async (request, reply) => single(reply, await service.getJob(request.ctx, request.params.job_id)),
  });
}
