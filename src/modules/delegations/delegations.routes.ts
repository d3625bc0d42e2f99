import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  Delegation,
  DelegationCreate,
  DelegationListQuery,
  DelegationUpdate,
  DELEGATION_FILTERS,
} from './delegations.schemas.ts';
import * as service from './delegations.service.ts';

const tags = ['Delegations'];
const Params = IdParam('delegation_id');
// Set up by whoever manages the team: a plain member's personal key reads those it is party to, and cannot write.
const common = { tags, preview: true } as const;
const write = { ...common, tier: 'write', companyConfig: true } as const;
const REFERENCES = ['INVALID_PERSON', 'VALIDATION_ERROR'] as const;

export default async function taskAutomationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/delegations', {
      ...common,
      operationId: 'listDelegations',
      summary: 'List delegations',
      tier: 'write',
      filters: DELEGATION_FILTERS,
      schema: { querystring: DelegationListQuery, response: { 200: OffsetOrCursorList(Delegation) } },
    }),
    handler: async (request) => service.listDelegations(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/delegations', {
      idempotent: true,
      ...write,
      operationId: 'createDelegation',
      summary: "Create a delegation: the delegate sees and works the delegator's tasks for a date range",
      errors: [...REFERENCES],
      schema: { body: DelegationCreate, response: { 201: Single(Delegation) } },
    }),
    handler: async (request, reply) => single(reply, await service.createDelegation(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/delegations/:delegation_id', {
      ...common,
      operationId: 'getDelegation',
      summary: 'Get a delegation',
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Delegation) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getDelegation(request.ctx, request.params.delegation_id)),
  });

  app.route({
    ...route('PATCH', '/delegations/:delegation_id', {
      ...write,
      operationId: 'updateDelegation',
      summary: 'Update a delegation (send only the fields to change)',
      errors: ['NOT_FOUND', ...REFERENCES],
      schema: { params: Params, body: DelegationUpdate, response: { 200: Single(Delegation) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateDelegation(request.ctx, request.params.delegation_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/delegations/:delegation_id', {
      ...write,
      operationId: 'deleteDelegation',
      summary: 'Delete a delegation (soft delete); it ends at once',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteDelegation(request.ctx, request.params.delegation_id);
      return noContent(reply);
    },
  });
}
