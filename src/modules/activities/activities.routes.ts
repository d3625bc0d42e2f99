import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { notFound } from '../../platform/errors.ts';
import { Activity, ActivityListQuery, ACTIVITY_FILTERS } from './activities.schemas.ts';
import * as repo from './activities.repository.ts';

const tags = ['Activities'];

/** The audit trail is read-only; writes are recorded by the platform (src/platform/activities.ts). */
export default async function activityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...route('GET', '/activities', {
      operationId: 'listActivities',
      summary: 'Audit trail of API v3 writes (newest first)',
      tags,
      tier: 'read',
      filters: ACTIVITY_FILTERS,
      schema: { querystring: ActivityListQuery, response: { 200: OffsetOrCursorList(Activity) } },
    }),
    handler: async (request) => repo.listActivities(request.ctx, request.query),
  });
  app.route({
    ...route('GET', '/activities/:activity_id', {
      operationId: 'getActivity',
      summary: 'One audit-trail entry',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: IdParam('activity_id'), response: { 200: Single(Activity) } },
    }),
    handler: async (request, reply) => {
      const activity = await repo.findActivity(request.ctx, request.params.activity_id);
      if (!activity) throw notFound('Activity');
      return single(reply, activity);
    },
  });
}
