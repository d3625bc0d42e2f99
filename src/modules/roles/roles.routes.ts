import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Role, RoleCreate, RoleListQuery, RoleUpdate } from './roles.schemas.ts';
import * as service from './roles.service.ts';

const tags = ['Roles'];
const Params = IdParam('role_id');
const preview = true;

export default async function roleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/roles', {
      operationId: 'listRoles',
      tags,
      tier: 'write',
      preview,
      summary: 'List roles (job titles); offset-only, ordered by id, default limit 100, no sort parameter',
      schema: { querystring: RoleListQuery, response: { 200: OffsetOrCursorList(Role) } },
    }),
    handler: async (request) => service.listRoles(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/roles', {
      idempotent: true,
      operationId: 'createRole',
      summary: 'Create a role (job title)',
      tags,
      tier: 'write',
      companyConfig: true,
      preview,
      schema: { body: RoleCreate, response: { 201: Single(Role) } },
    }),
    handler: async (request, reply) => single(reply, await service.createRole(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/roles/:role_id', {
      operationId: 'getRole',
      summary: 'Get a role (job title)',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Role) } },
    }),
    handler: async (request, reply) => single(reply, await service.getRole(request.ctx, request.params.role_id)),
  });

  app.route({
    ...route('PATCH', '/roles/:role_id', {
      operationId: 'updateRole',
      summary: 'Update a role (job title); send only the fields to change',
      tags,
      tier: 'write',
      companyConfig: true,
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: Params, body: RoleUpdate, response: { 200: Single(Role) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateRole(request.ctx, request.params.role_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/roles/:role_id', {
      operationId: 'deleteRole',
      tags,
      tier: 'write',
      companyConfig: true,
      preview,
      errors: ['NOT_FOUND'],
      summary: 'Delete a role (job title); soft delete',
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteRole(request.ctx, request.params.role_id);
      return noContent(reply);
    },
  });
}
