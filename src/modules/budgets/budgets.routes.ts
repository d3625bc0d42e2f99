import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { readIfMatch, requireIfMatch } from '../../platform/preconditions.ts';
import {
  Budget,
  BudgetCreate,
  BudgetListQuery,
  BudgetUpdate,
  BUDGET_FILTERS,
  BUDGET_MONEY,
} from './budgets.schemas.ts';
import * as service from './budgets.service.ts';

const tags = ['Budgets'];
const Params = IdParam('budget_id');
const REFERENCES = ['INVALID_CLIENT', 'INVALID_PROJECT'] as const;

/** If-Match read when the service asks for it (after the 404): required, or honoured when sent. */
const ifMatchOf =
  (request: FastifyRequest): service.IfMatch =>
  (required) =>
    required ? requireIfMatch(request) : readIfMatch(request);

/** 404 before the body is validated: another company's budget is 404 whatever the body holds. */
async function budgetFirst(request: FastifyRequest): Promise<void> {
  const id = Number((request.params as Record<string, unknown>).budget_id);
  if (Number.isInteger(id) && id >= 1 && id <= 2147483647) await service.getBudget(request.ctx, id);
}

/** Preview resource; every route is financial (reads too): read, write and personal keys get 403. */
export default async function budgetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/budgets', {
      operationId: 'listBudgets',
      summary: 'List budgets (offset paging only)',
      tags,
      tier: 'financials',
      preview: true,
      filters: BUDGET_FILTERS,
      schema: { querystring: BudgetListQuery, response: { 200: OffsetOrCursorList(Budget) } },
    }),
    handler: async (request) => service.listBudgets(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/budgets', {
      idempotent: true,
      operationId: 'createBudget',
      summary: 'Create a budget',
      tags,
      tier: 'financials',
      preview: true,
      errors: [...REFERENCES],
      schema: { body: BudgetCreate, response: { 201: Single(Budget) } },
    }),
    handler: async (request, reply) => single(reply, await service.createBudget(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/budgets/:budget_id', {
      operationId: 'getBudget',
      summary: 'Get a budget with its spend so far',
      tags,
      tier: 'financials',
      preview: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Budget) } },
    }),
    handler: async (request, reply) => single(reply, await service.getBudget(request.ctx, request.params.budget_id)),
  });

  app.route({
    ...route('PATCH', '/budgets/:budget_id', {
      operationId: 'updateBudget',
      summary: 'Update a budget (send only the fields to change)',
      description:
        'budget_net_sum, warning_rate and status need an admin key (403 FINANCIAL_SCOPE_REQUIRED) and If-Match; other ' +
        'fields are write-tier and honour If-Match when sent. A key without financials reads the sums as null.',
      tags,
      tier: 'write',
      financial: true,
      money: BUDGET_MONEY,
      preview: true,
      errors: ['NOT_FOUND', 'PRECONDITION_REQUIRED', 'STALE_WRITE', ...REFERENCES],
      schema: { params: Params, body: BudgetUpdate, response: { 200: Single(Budget) } },
    }),
    preValidation: budgetFirst,
    handler: async (request, reply) =>
      single(
        reply,
        await service.updateBudget(request.ctx, request.params.budget_id, request.body, ifMatchOf(request)),
      ),
  });

  app.route({
    ...route('DELETE', '/budgets/:budget_id', {
      operationId: 'deleteBudget',
      summary: 'Delete a budget (soft delete; If-Match honoured when sent)',
      tags,
      tier: 'financials',
      preview: true,
      errors: ['NOT_FOUND', 'STALE_WRITE'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteBudget(request.ctx, request.params.budget_id, ifMatchOf(request));
      return noContent(reply);
    },
  });
}
