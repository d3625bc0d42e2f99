import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  TaskRelation,
  TaskRelationCreate,
  TaskRelationListQuery,
  TASK_RELATION_FILTERS,
} from './task-relations.schemas.ts';
import * as service from './task-relations.service.ts';

const tags = ['Task relations'];
const Params = IdParam('task_relation_id');

export default async function taskRelationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/task-relations', {
      operationId: 'listTaskRelations',
      summary: 'List task dependencies (offset-only)',
      tags,
      tier: 'read',
      preview: true,
      filters: TASK_RELATION_FILTERS,
      schema: { querystring: TaskRelationListQuery, response: { 200: OffsetOrCursorList(TaskRelation) } },
    }),
    handler: async (request) => service.listTaskRelations(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/task-relations', {
      idempotent: true,
      operationId: 'createTaskRelation',
      summary: 'Make task_id depend on depends_on_id',
      tags,
      tier: 'write',
      preview: true,
      errors: ['INVALID_TASK', 'TASK_RELATION_EXISTS', 'TASK_RELATION_CYCLE'],
      schema: { body: TaskRelationCreate, response: { 201: Single(TaskRelation) } },
    }),
    handler: async (request, reply) => single(reply, await service.createTaskRelation(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/task-relations/:task_relation_id', {
      operationId: 'getTaskRelation',
      summary: 'Get a task dependency',
      tags,
      tier: 'read',
      preview: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(TaskRelation) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getTaskRelation(request.ctx, request.params.task_relation_id)),
  });

  app.route({
    ...route('DELETE', '/task-relations/:task_relation_id', {
      operationId: 'deleteTaskRelation',
      summary: 'Remove a task dependency',
      tags,
      tier: 'write',
      preview: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteTaskRelation(request.ctx, request.params.task_relation_id);
      return noContent(reply);
    },
  });
}
