import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Job } from '../jobs/index.ts';
import {
  BulkMemberAction,
  ClientManager,
  ManagerPut,
  MemberRoles,
  MemberRolesPut,
  WorkflowTask,
  WorkflowTaskListQuery,
  WORKFLOW_TASK_FILTERS,
} from './client-workflow.schemas.ts';
import * as service from './client-workflow.service.ts';
import { startBulkMemberAction } from './client-workflow.bulk.ts';

const tags = ['Clients'];
const Params = IdParam('client_id');

/**
 * The path's client is looked up before the body is validated, so another tenant's (or an invisible) client
 * answers 404 whatever the body holds. A malformed id is left to params validation (400).
 */
async function clientFirst(request: FastifyRequest): Promise<void> {
  const id = Number((request.params as Record<string, unknown>).client_id);
  if (Number.isInteger(id) && id >= 1 && id <= 2147483647) await service.assertClientVisible(request.ctx, id);
}

// Membership data is write tier throughout, as the spec puts /client-members (reads included).
export default async function clientWorkflowRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('PUT', '/clients/:client_id/manager', {
      operationId: 'setClientManager',
      summary: "Set the client's manager (its default_person_id), or clear it with null",
      description: 'Fires client.updated when the manager changes.',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'INVALID_PERSON'],
      schema: { params: Params, body: ManagerPut, response: { 200: Single(ClientManager) } },
    }),
    preValidation: clientFirst,
    handler: async (request, reply) =>
      single(reply, await service.setManager(request.ctx, request.params.client_id, request.body)),
  });

  app.route({
    ...route('GET', '/clients/:client_id/member-roles', {
      operationId: 'getClientMemberRoles',
      summary: "The client's members and the workflow role each holds",
      tags,
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(MemberRoles) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getMemberRoles(request.ctx, request.params.client_id)),
  });

  app.route({
    ...route('PUT', '/clients/:client_id/member-roles', {
      operationId: 'putClientMemberRoles',
      summary: "Replace the workflow roles of the client's members",
      description:
        'Each listed person holds the given role (and becomes a member if not one); members left out keep their ' +
        'membership without a workflow role. One transaction; fires no events.',
      tags,
      tier: 'write',
      errors: ['NOT_FOUND', 'INVALID_PERSON', 'INVALID_WORKFLOW_ROLE'],
      schema: { params: Params, body: MemberRolesPut, response: { 200: Single(MemberRoles) } },
    }),
    preValidation: clientFirst,
    handler: async (request, reply) =>
      single(reply, await service.putMemberRoles(request.ctx, request.params.client_id, request.body)),
  });

  app.route({
    ...route('GET', '/clients/:client_id/workflow-tasks', {
      operationId: 'listClientWorkflowTasks',
      summary: "The client's live tasks made from a workflow or carrying workflow roles (offset-only)",
      description: 'The same tasks GET /tasks?client_id= shows (read tier), with their template link and role holders.',
      tags,
      tier: 'read',
      filters: WORKFLOW_TASK_FILTERS,
      errors: ['NOT_FOUND'],
      schema: {
        params: Params,
        querystring: WorkflowTaskListQuery,
        response: { 200: OffsetOrCursorList(WorkflowTask) },
      },
    }),
    handler: async (request) => service.listWorkflowTasks(request.ctx, request.params.client_id, request.query),
  });

  app.route({
    ...route('POST', '/clients/bulk-member-action', {
      idempotent: true,
      operationId: 'bulkClientMemberAction',
      summary: 'Add, remove or replace a person as member of many clients in a background job',
      description: 'Answers 202 with the queued job; follow it at GET /jobs/{job_id}. Fires no webhook events.',
      tags,
      tier: 'write',
      errors: ['INVALID_CLIENT', 'INVALID_PERSON', 'INVALID_WORKFLOW_ROLE'],
      schema: { body: BulkMemberAction, response: { 202: Single(Job) } },
    }),
    handler: async (request, reply) => single(reply, await startBulkMemberAction(request.ctx, request.body), 202),
  });
}
