import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  WorkflowRole,
  WorkflowRoleCreate,
  WorkflowRoleListQuery,
  WorkflowRoleUpdate,
} from './workflow-roles.schemas.ts';
import * as service from './workflow-roles.service.ts';

const tags = ['Workflow roles'];
const Params = IdParam('workflow_role_id');
const preview = true;

export default async function workflowRoleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/workflow-roles', {
      operationId: 'listWorkflowRoles',
      tags,
      tier: 'write',
      preview,
      summary: 'List workflow roles (offset-only, ordered by sort_order then id; default limit 100; no sort parameter)',
      schema: { querystring: WorkflowRoleListQuery, response: { 200: OffsetOrCursorList(WorkflowRole) } },
    }),
    handler: async (request) => service.listWorkflowRoles(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/workflow-roles', {
      idempotent: true,
      operationId: 'createWorkflowRole',
      summary: 'Create a workflow role',
      tags,
      tier: 'write',
      companyConfig: true,
      preview,
      schema: { body: WorkflowRoleCreate, response: { 201: Single(WorkflowRole) } },
    }),
    handler: async (request, reply) => single(reply, await service.createWorkflowRole(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/workflow-roles/:workflow_role_id', {
      operationId: 'getWorkflowRole',
      summary: 'Get a workflow role',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(WorkflowRole) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getWorkflowRole(request.ctx, request.params.workflow_role_id)),
  });

  app.route({
    ...route('PATCH', '/workflow-roles/:workflow_role_id', {
      operationId: 'updateWorkflowRole',
      summary: 'Update a workflow role (send only the fields to change)',
      tags,
      tier: 'write',
      companyConfig: true,
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: Params, body: WorkflowRoleUpdate, response: { 200: Single(WorkflowRole) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateWorkflowRole(request.ctx, request.params.workflow_role_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/workflow-roles/:workflow_role_id', {
      operationId: 'deleteWorkflowRole',
      tags,
      tier: 'write',
      companyConfig: true,
      preview,
      errors: ['NOT_FOUND', 'ROLE_IN_USE'],
      summary: 'Delete a workflow role (soft delete); refused while an active task or a client member holds it',
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteWorkflowRole(request.ctx, request.params.workflow_role_id);
      return noContent(reply);
    },
  });
}
