import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  TaskAutomation,
  TaskAutomationCreate,
  TaskAutomationListQuery,
  TaskAutomationUpdate,
  TASK_AUTOMATION_FILTERS,
} from './task-automations.schemas.ts';
import * as service from './task-automations.service.ts';

const tags = ['Task automations'];
const Params = IdParam('task_automation_id');
// Company-wide rules: a plain member's personal key may read them but not change them.
const common = { tags, preview: true } as const;
const write = { ...common, tier: 'write', companyConfig: true } as const;
const REFERENCES = ['INVALID_CLIENT', 'INVALID_PROJECT', 'INVALID_TOPIC', 'INVALID_PERSON'] as const;

export default async function taskAutomationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/task-automations', {
      ...common,
      operationId: 'listTaskAutomations',
      summary: 'List task automation rules',
      tier: 'write',
      filters: TASK_AUTOMATION_FILTERS,
      schema: { querystring: TaskAutomationListQuery, response: { 200: OffsetOrCursorList(TaskAutomation) } },
    }),
    handler: async (request) => service.listAutomations(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/task-automations', {
      idempotent: true,
      ...write,
      operationId: 'createTaskAutomation',
      summary: 'Create a task automation rule (when trigger, if conditions, then actions)',
      errors: [...REFERENCES],
      schema: { body: TaskAutomationCreate, response: { 201: Single(TaskAutomation) } },
    }),
    handler: async (request, reply) => single(reply, await service.createAutomation(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/task-automations/:task_automation_id', {
      ...common,
      operationId: 'getTaskAutomation',
      summary: 'Get a task automation rule',
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(TaskAutomation) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getAutomation(request.ctx, request.params.task_automation_id)),
  });

  app.route({
    ...route('PATCH', '/task-automations/:task_automation_id', {
      ...write,
      operationId: 'updateTaskAutomation',
      summary: 'Update a task automation rule (send only the fields to change)',
      errors: ['NOT_FOUND', ...REFERENCES],
      schema: { params: Params, body: TaskAutomationUpdate, response: { 200: Single(TaskAutomation) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateAutomation(request.ctx, request.params.task_automation_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/task-automations/:task_automation_id', {
      ...write,
      operationId: 'deleteTaskAutomation',
      summary: 'Delete a task automation rule (soft delete); it stops running',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteAutomation(request.ctx, request.params.task_automation_id);
      return noContent(reply);
    },
  });
}
