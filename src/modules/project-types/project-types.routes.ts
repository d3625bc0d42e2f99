import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { ProjectType, ProjectTypeListQuery, PROJECT_TYPE_FILTERS } from './project-types.schemas.ts';
import * as service from './project-types.service.ts';

const tags = ['Projects'];

export default async function projectTypeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/project-types', {
      operationId: 'listProjectTypes',
      summary: 'List project types (offset-only)',
      tags,
      tier: 'read',
      preview: true,
      filters: PROJECT_TYPE_FILTERS,
      schema: { querystring: ProjectTypeListQuery, response: { 200: OffsetOrCursorList(ProjectType) } },
    }),
    handler: async (request) => service.listProjectTypes(request.ctx, request.query),
  });

  app.route({
    ...route('GET', '/project-types/:project_type_id', {
      operationId: 'getProjectType',
      summary: 'Get a project type',
      tags,
      tier: 'read',
      preview: true,
      errors: ['NOT_FOUND'],
      schema: { params: IdParam('project_type_id'), response: { 200: Single(ProjectType) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getProjectType(request.ctx, request.params.project_type_id)),
  });
}
