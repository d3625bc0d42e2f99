import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { requireIfMatch } from '../../platform/preconditions.ts';
import { applyTemplate } from './contracts.apply.ts';
import {
  ApplyBody,
  ApplyOutcome,
  ApplyQuery,
  Contract,
  ContractCreate,
  ContractListQuery,
  ContractPreview,
  ContractUpdate,
  CONTRACT_FILTERS,
  CONTRACT_MONEY,
  MAX_APPLY_CLIENTS,
} from './contracts.schemas.ts';
import * as service from './contracts.service.ts';

const tags = ['Contracts'];
const Params = IdParam('contract_id');
const PRECONDITIONS = ['PRECONDITION_REQUIRED', 'STALE_WRITE'] as const;

/** The path's contract is looked up before the body is validated: another company's id is 404 whatever the body. */
export async function contractFirst(request: FastifyRequest): Promise<void> {
  const id = Number((request.params as Record<string, unknown>).contract_id);
  if (Number.isInteger(id) && id >= 1 && id <= 2147483647) await service.assertContractExists(request.ctx, id);
}

/**
 * Every route is financial (reads too): read, write and personal keys get 403 FINANCIAL_SCOPE_REQUIRED, except that
 * PATCH is write-tier for the fields that are not money (spec table, decision 0049).
 */
export default async function contractRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/contracts', {
      operationId: 'listContracts',
      summary: 'List contracts and templates',
      tags,
      tier: 'financials',
      filters: CONTRACT_FILTERS,
      schema: { querystring: ContractListQuery, response: { 200: OffsetOrCursorList(Contract) } },
    }),
    handler: async (request) => service.listContracts(request.ctx, request.query),
  });

  // A preview writes nothing, so it stays out of the audit trail.
  const preview = route('POST', '/contracts/preview', {
    operationId: 'previewContract',
    summary: 'Check a contract create body; writes nothing',
    description: 'Same body and checks as POST /contracts. Header problems answer 400 as create would.',
    tags,
    tier: 'financials',
    errors: ['INVALID_CLIENT', 'INVALID_CONTRACT'],
    schema: { body: ContractCreate, response: { 200: Single(ContractPreview) } },
  });
  app.route({
    ...preview,
    config: { ...preview.config, activity: false },
    handler: async (request, reply) => {
      const { data, warnings } = await service.previewContract(request.ctx, request.body);
      return single(reply, data, 200, warnings);
    },
  });

  app.route({
    ...route('POST', '/contracts', {
      idempotent: true,
      operationId: 'createContract',
      summary: 'Create a contract or template, with up to 200 rows, atomically',
      description:
        'Any refused row: 422 CONTRACT_ROWS_REJECTED with details.rejections (row_index, code, message, field) ' +
        'for every refused row, and nothing written. Row warnings come in warnings[].',
      tags,
      tier: 'financials',
      errors: ['INVALID_CLIENT', 'INVALID_CONTRACT', 'CONTRACT_ROWS_REJECTED'],
      schema: { body: ContractCreate, response: { 201: Single(Contract) } },
    }),
    handler: async (request, reply) => {
      const { data, warnings } = await service.createContract(request.ctx, request.body);
      return single(reply, data, 201, warnings);
    },
  });

  app.route({
    ...route('GET', '/contracts/:contract_id', {
      operationId: 'getContract',
      summary: 'Get a contract with its rows (up to 200 inlined)',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Contract) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getContract(request.ctx, request.params.contract_id)),
  });

  app.route({
    ...route('PATCH', '/contracts/:contract_id', {
      operationId: 'updateContract',
      summary: 'Update a contract (If-Match required); settings merge key by key',
      description:
        'status: active → pending, finished → pending, pending → active (others 409). A date_until up to today ' +
        'finishes an active contract; a later one leaves it active until that day. client_id, invoice_period and ' +
        'settings currency, is_reverse_charge and invoice_time_rounding need an admin key (403 ' +
        'FINANCIAL_SCOPE_REQUIRED); the rest is write-tier. A key without financials reads settings as null, rows [].',
      tags,
      tier: 'write',
      financial: true,
      money: CONTRACT_MONEY,
      errors: ['NOT_FOUND', 'INVALID_CLIENT', 'INVALID_STATUS_TRANSITION', ...PRECONDITIONS],
      schema: { params: Params, body: ContractUpdate, response: { 200: Single(Contract) } },
    }),
    preValidation: contractFirst,
    handler: async (request, reply) =>
      single(
        reply,
        await service.updateContract(request.ctx, request.params.contract_id, request.body, requireIfMatch(request)),
      ),
  });

  app.route({
    ...route('DELETE', '/contracts/:contract_id', {
      operationId: 'deleteContract',
      summary: 'Delete a pending contract (soft delete; If-Match required)',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', 'CONTRACT_LOCKED', ...PRECONDITIONS],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    preValidation: contractFirst,
    handler: async (request, reply) => {
      await service.deleteContract(request.ctx, request.params.contract_id, requireIfMatch(request));
      return noContent(reply);
    },
  });

  app.route({
    ...route('POST', '/contracts/:contract_id/apply', {
      idempotent: true,
      operationId: 'applyContractTemplate',
      summary: `Apply a template to up to ${MAX_APPLY_CLIENTS} clients (add, replace or append)`,
      description:
        'Synchronous, one transaction, one result per client; dry_run=true (query or body) answers the plan and ' +
        'writes nothing. ' +
        'Unknown client ids give a per-client INVALID_CLIENT result. Never creates invoices.',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: {
        params: Params,
        querystring: ApplyQuery,
        body: ApplyBody,
        response: { 200: Type.Object({ data: ApplyOutcome }) },
      },
    }),
    preValidation: contractFirst,
    handler: async (request, reply) => {
      reply.code(200);
      return { data: await applyTemplate(request.ctx, request.params.contract_id, request.body, request.query) };
    },
  });
}
