import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Team, TeamCreate, TeamListQuery, TeamUpdate, TEAM_FILTERS } from './teams.schemas.ts';
import * as service from './teams.service.ts';

const tags = ['Teams'];
const Params = IdParam('team_id');

export default async function teamRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/teams', {
      operationId: 'listTeams',
      summary: 'List teams (offset-only)',
      tags,
      tier: 'read',
      filters: TEAM_FILTERS,
      schema: { querystring: TeamListQuery, response: { 200: OffsetOrCursorList(Team) } },
    }),
    handler: async (request) => service.listTeams(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/teams', {
      idempotent: true,
      operationId: 'createTeam',
      summary: 'Create a team',
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['INVALID_PERSON'],
      schema: { body: TeamCreate, response: { 201: Single(Team) } },
    }),
    handler: async (request, reply) => single(reply, await service.createTeam(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/teams/:team_id', {
      operationId: 'getTeam',
      summary: 'Get a team',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Team) } },
    }),
    handler: async (request, reply) => single(reply, await service.getTeam(request.ctx, request.params.team_id)),
  });

  app.route({
    ...route('PATCH', '/teams/:team_id', {
      operationId: 'updateTeam',
      summary: 'Update a team (send only the fields to change; member_ids replaces the whole list)',
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['NOT_FOUND', 'INVALID_PERSON'],
      schema: { params: Params, body: TeamUpdate, response: { 200: Single(Team) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateTeam(request.ctx, request.params.team_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/teams/:team_id', {
      operationId: 'deleteTeam',
      summary: 'Delete a team (soft delete)',
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteTeam(request.ctx, request.params.team_id);
      return noContent(reply);
    },
  });
}
