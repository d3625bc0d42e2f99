import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OffsetOrCursorList, route } from '../../platform/http.ts';
import type { ModuleRouteOptions } from '../../platform/modules.ts';
import { FeedEvent, feedQuery, FEED_FILTERS } from './events.schemas.ts';
import * as repo from './events.repository.ts';

const tags = ['Events'];

/** The change feed: a stable addition to API v3 (additive endpoint, no version change). */
export default async function eventRoutes(fastify: FastifyInstance, { registry }: ModuleRouteOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const FeedQuery = feedQuery(registry.eventNames);
  app.route({
    ...route('GET', '/events', {
      operationId: 'listEvents',
      summary: 'Change feed: the recorded events of the company, newest last (stable addition)',
      tags,
      tier: 'admin',
      filters: FEED_FILTERS,
      description: [
        'Stable addition to API v3 (additive; not in the original reference).',
        'The events webhooks deliver, deletions included, kept 30 days, each with the same `id` its webhook deliveries carry:',
        'catch up after downtime without a receiver by following `meta.next_cursor` (cursor list).',
        'An event appears once every transaction older than it has finished, so a cursor never skips an event that commits late;',
        'following the cursor later returns only newer events.',
      ].join(' '),
      schema: {
        querystring: FeedQuery,
        response: { 200: OffsetOrCursorList(FeedEvent) },
        'x-stability': 'stable-addition',
      },
    }),
    handler: async (request) => repo.listEvents(request.ctx, request.query, registry.eventShapes),
  });
}
