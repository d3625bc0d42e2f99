import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../platform/errors.ts';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Project, ProjectCreate, ProjectListQuery, ProjectUpdate, PROJECT_FILTERS } from './projects.schemas.ts';
import * as service from './projects.service.ts';

const tags = ['Projects'];
const Params = IdParam('project_id');

/** A raw `status` is refused with a pointer to status_action, rather than a bare "unknown field". */
async function refuseRawStatus(request: FastifyRequest): Promise<void> {
  const body = request.body as Record<string, unknown> | null;
  if (body && typeof body === 'object' && 'status' in body) {
    throw new AppError(
      'VALIDATION_ERROR',
      'status is not writable; change it with status_action (activate, cancel, archive, unarchive)',
      {
        reason: 'READ_ONLY_FIELD',
        field: 'status',
        errors: [{ field: 'status', message: 'is not writable; use status_action' }],
      },
    );
  }
}

export default async function projectRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/projects', {
      operationId: 'listProjects',
      summary: 'List projects',
      tags,
      tier: 'write',
      preview: true,
      filters: PROJECT_FILTERS,
      schema: { querystring: ProjectListQuery, response: { 200: OffsetOrCursorList(Project) } },
    }),
    handler: async (request) => service.listProjects(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/projects', {
      idempotent: true,
      operationId: 'createProject',
      summary: 'Create a project (status starts active)',
      tags,
      tier: 'write',
      preview: true,
      errors: ['INVALID_PROJECT_TYPE', 'INVALID_CLIENT', 'INVALID_PERSON'],
      schema: { body: ProjectCreate, response: { 201: Single(Project) } },
    }),
    preValidation: refuseRawStatus,
    handler: async (request, reply) => single(reply, await service.createProject(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/projects/:project_id', {
      operationId: 'getProject',
      summary: 'Get a project',
      tags,
      tier: 'write',
      preview: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Project) } },
    }),
    handler: async (request, reply) => single(reply, await service.getProject(request.ctx, request.params.project_id)),
  });

  app.route({
    ...route('PATCH', '/projects/:project_id', {
      operationId: 'updateProject',
      tags,
      tier: 'write',
      preview: true,
      summary:
        'Update a project; status_action changes the status; a different client_id moves the project and its tasks',
      description:
        'A client move needs the manage-client right on the current and the destination client, and is refused as a whole ' +
        '(409 PARTIAL_REPARENT_REFUSED, details.stranded_tasks) when any task of the project is not visible to the caller. ' +
        'Task automations, invoiced work and revenue attribution keep the old client.',
      errors: [
        'NOT_FOUND',
        'INVALID_PROJECT_TYPE',
        'INVALID_CLIENT',
        'INVALID_PERSON',
        'INVALID_STATUS_TRANSITION',
        'PARTIAL_REPARENT_REFUSED',
      ],
      schema: { params: Params, body: ProjectUpdate, response: { 200: Single(Project) } },
    }),
    preValidation: refuseRawStatus,
    handler: async (request, reply) =>
      single(reply, await service.updateProject(request.ctx, request.params.project_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/projects/:project_id', {
      operationId: 'deleteProject',
      summary: 'Delete a project (soft delete; its tasks are kept)',
      tags,
      tier: 'write',
      preview: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteProject(request.ctx, request.params.project_id);
      return noContent(reply);
    },
  });
}
