import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { readIfMatch } from '../../platform/preconditions.ts';
import {
  BALANCE_FILTERS,
  FLEXTIME_FILTERS,
  FlextimeBalance,
  FlextimeBalanceQuery,
  FlextimeListQuery,
  FlextimeRow,
  FlextimeRowCreate,
  FlextimeRowUpdate,
  FLEXTIME_MONEY,
} from './flextime.schemas.ts';
import * as service from './flextime.service.ts';

const tags = ['Flextime'];
const Params = IdParam('flextime_id');
// Flextime is a financial resource (Authentication rule 4): every route needs the financials tier, which admin
// keys carry, so "POST admin" holds and a write key gets 403 FINANCIAL_SCOPE_REQUIRED; PATCH is write-tier but for
// duration (the spec's table, decision 0049).
const access = { tags, tier: 'financials', preview: true } as const;

export default async function flextimeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/flextime', {
      ...access,
      operationId: 'listFlextimeRows',
      summary: 'List flextime rows (offset paging only)',
      filters: FLEXTIME_FILTERS,
      schema: { querystring: FlextimeListQuery, response: { 200: OffsetOrCursorList(FlextimeRow) } },
    }),
    handler: async (request) => service.listRows(request.ctx, request.query),
  });

  app.route({
    ...route('GET', '/flextime/balance', {
      ...access,
      operationId: 'getFlextimeBalance',
      summary: 'Flextime balance per member over a window of days',
      description:
        'One entry per member (offset paging by person id): expected working time from agreements less approved ' +
        'vacation, sick leave, time off and holidays; worked time from closed time entries by their local start ' +
        "day; flextime rows; the member's flextime_credit as the opening balance. Default window: 1 January of " +
        "the current year up to today in the company's time zone; at most 3660 days.",
      filters: BALANCE_FILTERS,
      schema: { querystring: FlextimeBalanceQuery, response: { 200: OffsetOrCursorList(FlextimeBalance) } },
    }),
    handler: async (request) => service.listBalance(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/flextime', {
      idempotent: true,
      ...access,
      operationId: 'createFlextimeRow',
      summary: 'Add a flextime row (a positive or negative adjustment of a member’s balance)',
      errors: ['INVALID_PERSON'],
      schema: { body: FlextimeRowCreate, response: { 201: Single(FlextimeRow) } },
    }),
    handler: async (request, reply) => single(reply, await service.createRow(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/flextime/:flextime_id', {
      ...access,
      operationId: 'getFlextimeRow',
      summary: 'Get a flextime row',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(FlextimeRow) } },
    }),
    handler: async (request, reply) => single(reply, await service.getRow(request.ctx, request.params.flextime_id)),
  });

  app.route({
    ...route('PATCH', '/flextime/:flextime_id', {
      ...access,
      operationId: 'updateFlextimeRow',
      summary: 'Update a flextime row (send only the fields to change)',
      description:
        'person_id, date and description are write-tier; duration needs an admin key (403 FINANCIAL_SCOPE_REQUIRED). ' +
        'An If-Match header is honoured when sent (412 when stale). A key without financials reads duration as null.',
      tier: 'write',
      financial: true,
      money: FLEXTIME_MONEY,
      errors: ['NOT_FOUND', 'INVALID_PERSON', 'STALE_WRITE'],
      schema: { params: Params, body: FlextimeRowUpdate, response: { 200: Single(FlextimeRow) } },
    }),
    handler: async (request, reply) =>
      single(
        reply,
        await service.updateRow(request.ctx, request.params.flextime_id, request.body, readIfMatch(request)),
      ),
  });

  app.route({
    ...route('DELETE', '/flextime/:flextime_id', {
      ...access,
      operationId: 'deleteFlextimeRow',
      summary: 'Delete a flextime row (soft delete)',
      description: 'An If-Match header is honoured when sent (412 when stale).',
      errors: ['NOT_FOUND', 'STALE_WRITE'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteRow(request.ctx, request.params.flextime_id, readIfMatch(request));
      return noContent(reply);
    },
  });
}
