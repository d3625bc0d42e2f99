import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { route } from '../../platform/http.ts';
import { SearchQuery, SearchResult, SEARCH_FILTERS } from './search.schemas.ts';
import * as service from './search.service.ts';

export default async function searchRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/search', {
      operationId: 'search',
      tags: ['Search'],
      tier: 'read',
      filters: SEARCH_FILTERS,
      summary: 'Find tasks (title), contacts (name, surname, e-mail) and projects (name); offset-only',
      description:
        'Clients are not searched here: use GET /clients?q=. Hits whose title starts with q come first, then by title.',
      schema: { querystring: SearchQuery, response: { 200: SearchResult } },
    }),
    handler: async (request) => service.search(request.ctx, request.query),
  });
}
