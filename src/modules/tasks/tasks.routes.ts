import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ErrorCode } from '../../platform/errors.ts';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Job } from '../jobs/index.ts';
import {
  BulkAction,
  ChecklistPut,
  Comment,
  CommentCreate,
  Task,
  TaskCreate,
  TaskListQuery,
  TaskUpdate,
  TASK_FILTERS,
} from './tasks.schemas.ts';
import * as service from './tasks.service.ts';
import { startBulkAction } from './tasks.bulk.ts';

const tags = ['Tasks'];
const Params = IdParam('task_id');
const REFERENCES: ErrorCode[] = ['INVALID_CLIENT', 'INVALID_PROJECT', 'INVALID_PERSON'];

/**
 * The path's task is looked up before the body is validated, so another tenant's (or an invisible) task id
 * answers 404 whatever the body holds. A malformed id is left to params validation (400).
 */
async function taskFirst(request: FastifyRequest): Promise<void> {
  const id = Number((request.params as Record<string, unknown>).task_id);
  if (Number.isInteger(id) && id >= 1 && id <= 2147483647) await service.assertTaskVisible(request.ctx, id);
}

export default async function taskRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/tasks', {
      operationId: 'listTasks',
      summary: 'List tasks',
      tags,
      tier: 'read',
      filters: TASK_FILTERS,
      description:
        'Without a type filter only task and request rows are listed; template rows of both workflow engines and timer rows (type button) are left out, ' +
        'and meta.total and cursors follow the same rule. type=button lists timer rows; client_id of a template client lists its template rows.',
      schema: { querystring: TaskListQuery, response: { 200: OffsetOrCursorList(Task) } },
    }),
    handler: async (request) => service.listTasks(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/tasks', {
      idempotent: true,
      operationId: 'createTask',
      summary: 'Create a task',
      tags,
      tier: 'write',
      errors: [...REFERENCES],
      schema: { body: TaskCreate, response: { 201: Single(Task) } },
    }),
    handler: async (request, reply) => single(reply, await service.createTask(request.ctx, request.body), 201),
  });

  app.route({
    ...route('POST', '/tasks/bulk-action', {
      idempotent: true,
      operationId: 'bulkTaskAction',
      summary: 'Change status, assignees or delete many tasks in a background job',
      tags,
      tier: 'write',
      description: 'Answers 202 with the queued job; follow it at GET /jobs/{job_id}. Fires no webhook events.',
      errors: [...REFERENCES, 'INVALID_TASK', 'READ_ONLY'],
      schema: { body: BulkAction, response: { 202: Single(Job) } },
    }),
    handler: async (request, reply) => single(reply, await startBulkAction(request.ctx, request.body), 202),
  });

  app.route({
    ...route('GET', '/tasks/:task_id', {
      operationId: 'getTask',
      summary: 'Get a task (any row by id, templates and timers included)',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Task) } },
    }),
    handler: async (request, reply) => single(reply, await service.getTask(request.ctx, request.params.task_id)),
  });

  app.route({
    ...route('PATCH', '/tasks/:task_id', {
      operationId: 'updateTask',
      summary: 'Update a task (send only the fields to change; assignees replace the whole list)',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'READ_ONLY', ...REFERENCES],
      schema: { params: Params, body: TaskUpdate, response: { 200: Single(Task) } },
    }),
    preValidation: taskFirst,
    handler: async (request, reply) =>
      single(reply, await service.updateTask(request.ctx, request.params.task_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/tasks/:task_id', {
      operationId: 'deleteTask',
      summary: 'Delete a task (soft delete)',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'READ_ONLY'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteTask(request.ctx, request.params.task_id);
      return noContent(reply);
    },
  });

  app.route({
    ...route('POST', '/tasks/:task_id/complete', {
      idempotent: true,
      operationId: 'completeTask',
      summary: 'Finish a task (from new, in_progress or inactive)',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'READ_ONLY', 'INVALID_STATUS_TRANSITION'],
      schema: { params: Params, response: { 200: Single(Task) } },
    }),
    handler: async (request, reply) => single(reply, await service.completeTask(request.ctx, request.params.task_id)),
  });

  app.route({
    ...route('POST', '/tasks/:task_id/reopen', {
      idempotent: true,
      operationId: 'reopenTask',
      summary: 'Reopen a finished task (back to its prior open status, default new)',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'READ_ONLY', 'INVALID_STATUS_TRANSITION'],
      schema: { params: Params, response: { 200: Single(Task) } },
    }),
    handler: async (request, reply) => single(reply, await service.reopenTask(request.ctx, request.params.task_id)),
  });

  app.route({
    ...route('PUT', '/tasks/:task_id/checklist', {
      operationId: 'replaceTaskChecklist',
      summary: "Replace the task's whole checklist",
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'READ_ONLY'],
      schema: { params: Params, body: ChecklistPut, response: { 200: Single(Task) } },
    }),
    preValidation: taskFirst,
    handler: async (request, reply) =>
      single(reply, await service.replaceChecklist(request.ctx, request.params.task_id, request.body)),
  });

  app.route({
    ...route('POST', '/tasks/:task_id/comments', {
      idempotent: true,
      operationId: 'createTaskComment',
      summary: "Comment on a task (the author is the key's person)",
      tags,
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: { params: Params, body: CommentCreate, response: { 201: Single(Comment) } },
    }),
    preValidation: taskFirst,
    handler: async (request, reply) =>
      single(reply, await service.addComment(request.ctx, request.params.task_id, request.body), 201),
  });
}
