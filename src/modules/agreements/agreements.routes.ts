import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { requireIfMatch } from '../../platform/preconditions.ts';
import {
  Agreement,
  AgreementCreate,
  AgreementListQuery,
  AgreementUpdate,
  AGREEMENT_FILTERS,
  MemberAgreementCreate,
  MemberAgreementListQuery,
  MEMBER_AGREEMENT_FILTERS,
} from './agreements.schemas.ts';
import * as service from './agreements.service.ts';

const tags = ['Agreements'];
const PRECONDITIONS = ['PRECONDITION_REQUIRED', 'STALE_WRITE'] as const;
const Params = IdParam('agreement_id');
const MemberParams = IdParam('member_id');
const MemberAgreementParams = Type.Object({ ...MemberParams.properties, ...Params.properties });

const validId = (value: unknown) =>
  Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 2147483647;

/**
 * Looked up before the body is validated: another company's member or agreement (or, on the member routes,
 * another member's agreement) is 404 whatever the body holds.
 */
async function pathFirst(request: FastifyRequest): Promise<void> {
  const params = request.params as Record<string, unknown>;
  const memberId = Number(params.member_id);
  const agreementId = Number(params.agreement_id);
  if (params.member_id !== undefined && !validId(memberId)) return;
  const scope = params.member_id === undefined ? {} : await service.memberScope(request.ctx, memberId);
  if (params.agreement_id !== undefined && validId(agreementId))
    await service.assertAgreementExists(request.ctx, agreementId, scope);
}

/** Every route is financial (reads too): read, write and personal keys get 403 FINANCIAL_SCOPE_REQUIRED. */
export default async function agreementRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ifMatch = (request: FastifyRequest) => () => requireIfMatch(request);

  app.route({
    ...route('GET', '/agreements', {
      operationId: 'listAgreements',
      summary: "List the company's agreements (offset paging only)",
      description: 'date_from and date_until select agreements whose period overlaps that window.',
      tags,
      tier: 'financials',
      filters: AGREEMENT_FILTERS,
      schema: { querystring: AgreementListQuery, response: { 200: OffsetOrCursorList(Agreement) } },
    }),
    handler: async (request) => service.listAgreements(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/agreements', {
      idempotent: true,
      operationId: 'createAgreement',
      summary: 'Create an agreement for a member',
      description: "An overlap with the same person's agreements is created anyway, with warning AGREEMENT_OVERLAP.",
      tags,
      tier: 'financials',
      errors: ['INVALID_PERSON'],
      schema: { body: AgreementCreate, response: { 201: Single(Agreement) } },
    }),
    handler: async (request, reply) => {
      const { data, warnings } = await service.createAgreement(request.ctx, request.body);
      return single(reply, data, 201, warnings);
    },
  });

  app.route({
    ...route('GET', '/agreements/:agreement_id', {
      operationId: 'getAgreement',
      summary: 'Get an agreement',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Agreement) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getAgreement(request.ctx, request.params.agreement_id)),
  });

  app.route({
    ...route('PATCH', '/agreements/:agreement_id', {
      operationId: 'updateAgreement',
      summary: 'Update an agreement (If-Match required; send only the fields to change)',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', ...PRECONDITIONS],
      schema: { params: Params, body: AgreementUpdate, response: { 200: Single(Agreement) } },
    }),
    preValidation: pathFirst,
    handler: async (request, reply) => {
      const id = request.params.agreement_id;
      const { data, warnings } = await service.updateAgreement(request.ctx, id, request.body, ifMatch(request));
      return single(reply, data, 200, warnings);
    },
  });

  app.route({
    ...route('DELETE', '/agreements/:agreement_id', {
      operationId: 'deleteAgreement',
      summary: 'Delete an agreement (If-Match required)',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', ...PRECONDITIONS],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteAgreement(request.ctx, request.params.agreement_id, ifMatch(request));
      return noContent(reply);
    },
  });

  await memberAgreementRoutes(fastify);
}

/** The same operations on one member's agreements: the person comes from the path member. */
async function memberAgreementRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ifMatch = (request: FastifyRequest) => () => requireIfMatch(request);
  const scopeOf = (request: FastifyRequest) =>
    service.memberScope(request.ctx, (request.params as { member_id: number }).member_id);

  app.route({
    ...route('GET', '/members/:member_id/agreements', {
      operationId: 'listMemberAgreements',
      summary: "List a member's agreements (offset paging only)",
      description: 'date_from and date_until select agreements whose period overlaps that window.',
      tags,
      tier: 'financials',
      filters: MEMBER_AGREEMENT_FILTERS,
      errors: ['NOT_FOUND'],
      schema: {
        params: MemberParams,
        querystring: MemberAgreementListQuery,
        response: { 200: OffsetOrCursorList(Agreement) },
      },
    }),
    handler: async (request) => service.listAgreements(request.ctx, request.query, await scopeOf(request)),
  });

  app.route({
    ...route('POST', '/members/:member_id/agreements', {
      idempotent: true,
      operationId: 'createMemberAgreement',
      summary: 'Create an agreement for this member',
      description: "An overlap with the member's agreements is created anyway, with warning AGREEMENT_OVERLAP.",
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: MemberParams, body: MemberAgreementCreate, response: { 201: Single(Agreement) } },
    }),
    preValidation: pathFirst,
    handler: async (request, reply) => {
      const scope = await scopeOf(request);
      const { data, warnings } = await service.createAgreement(request.ctx, request.body, scope);
      return single(reply, data, 201, warnings);
    },
  });

  app.route({
    ...route('GET', '/members/:member_id/agreements/:agreement_id', {
      operationId: 'getMemberAgreement',
      summary: "Get one of the member's agreements",
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: MemberAgreementParams, response: { 200: Single(Agreement) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getAgreement(request.ctx, request.params.agreement_id, await scopeOf(request))),
  });

  app.route({
    ...route('PATCH', '/members/:member_id/agreements/:agreement_id', {
      operationId: 'updateMemberAgreement',
      summary: "Update one of the member's agreements (If-Match required)",
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', ...PRECONDITIONS],
      schema: { params: MemberAgreementParams, body: AgreementUpdate, response: { 200: Single(Agreement) } },
    }),
    preValidation: pathFirst,
    handler: async (request, reply) => {
      const { agreement_id: id } = request.params;
      const scope = await scopeOf(request);
      const { data, warnings } = await service.updateAgreement(request.ctx, id, request.body, ifMatch(request), scope);
      return single(reply, data, 200, warnings);
    },
  });

  app.route({
    ...route('DELETE', '/members/:member_id/agreements/:agreement_id', {
      operationId: 'deleteMemberAgreement',
      summary: "Delete one of the member's agreements (If-Match required)",
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', ...PRECONDITIONS],
      schema: { params: MemberAgreementParams, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      const scope = await scopeOf(request);
      await service.deleteAgreement(request.ctx, request.params.agreement_id, ifMatch(request), scope);
      return noContent(reply);
    },
  });
}
