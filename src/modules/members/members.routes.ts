import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { requireIfMatch } from '../../platform/preconditions.ts';
import { Member, MemberCreate, MemberListQuery, MemberUpdate, MEMBER_FILTERS } from './members.schemas.ts';
import * as service from './members.service.ts';

const tags = ['Members'];
const Params = IdParam('member_id');

/** No DELETE: the interface has no member-delete operation. */
export default async function memberRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/members', {
      operationId: 'listMembers',
      summary: 'List team members',
      tags,
      tier: 'read',
      filters: MEMBER_FILTERS,
      description: 'flextime_credit and vacation_credit read as null without the financials scope.',
      schema: { querystring: MemberListQuery, response: { 200: OffsetOrCursorList(Member) } },
    }),
    handler: async (request) => service.listMembers(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/members', {
      idempotent: true,
      operationId: 'createMember',
      summary: 'Create a placeholder member (no login; status limited, role member)',
      tags,
      tier: 'write',
      errors: ['INVALID_PERSON'],
      schema: { body: MemberCreate, response: { 201: Single(Member) } },
    }),
    handler: async (request, reply) => single(reply, await service.createMember(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/members/:member_id', {
      operationId: 'getMember',
      summary: 'Get a member',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Member) } },
    }),
    handler: async (request, reply) => single(reply, await service.getMember(request.ctx, request.params.member_id)),
  });

  app.route({
    ...route('PATCH', '/members/:member_id', {
      operationId: 'updateMember',
      summary: 'Update a member (send only the fields to change)',
      tags,
      tier: 'write',
      description:
        "role and status: only through a web session of an owner or admin (any API key: MANAGEMENT_UI_ONLY; a plain member: FORBIDDEN); only owners make, unmake or (de)activate owners; status moves between active and inactive only (INVALID_STATUS_TRANSITION); the last active owner is never demoted or deactivated (LAST_OWNER); inactive ends the member account's sessions. flextime_credit and vacation_credit need an admin key and If-Match.",
      errors: [
        'NOT_FOUND',
        'INVALID_PERSON',
        'MANAGEMENT_UI_ONLY',
        'LAST_OWNER',
        'INVALID_STATUS_TRANSITION',
        'FINANCIAL_SCOPE_REQUIRED',
        'PRECONDITION_REQUIRED',
        'STALE_WRITE',
      ],
      schema: { params: Params, body: MemberUpdate, response: { 200: Single(Member) } },
    }),
    handler: async (request, reply) =>
      single(
        reply,
        await service.updateMember(request.ctx, request.params.member_id, request.body, () => requireIfMatch(request)),
      ),
  });
}
