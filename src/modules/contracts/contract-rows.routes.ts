import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id } from '../../platform/fields.ts';
import { noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { requireIfMatch } from '../../platform/preconditions.ts';
import { ContractRow, ContractRowPrice, RowCreate, RowPriceCreate, RowUpdate } from './contracts.row-schemas.ts';
import { RowListQuery } from './contracts.schemas.ts';
import * as rows from './contract-rows.service.ts';
import { contractFirst } from './contracts.routes.ts';

const tags = ['Contracts'];
const ContractParams = Type.Object({ contract_id: Id('Contract id') });
const RowParams = Type.Object({ contract_id: Id('Contract id'), contract_row_id: Id('Contract row id') });
const PRECONDITIONS = ['PRECONDITION_REQUIRED', 'STALE_WRITE'] as const;
const validId = (value: unknown) =>
  Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 2147483647;

/** The contract, then the row under it, before the body is validated (another company's ids: 404). */
async function rowFirst(request: FastifyRequest): Promise<void> {
  await contractFirst(request);
  const params = request.params as Record<string, unknown>;
  const contractId = Number(params.contract_id);
  const rowId = Number(params.contract_row_id);
  if (validId(contractId) && validId(rowId)) await rows.assertRowExists(request.ctx, contractId, rowId);
}

/**
 * Contract rows: financial on every route. Writes need If-Match: creating a row carries the contract's ETag,
 * changing or deleting one (or adding to its prices) the row's own. Every row write moves the contract's ETag on.
 */
export default async function contractRowRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/contracts/:contract_id/rows', {
      operationId: 'listContractRows',
      summary: "List a contract's rows (every row, offset pages)",
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: ContractParams, querystring: RowListQuery, response: { 200: OffsetOrCursorList(ContractRow) } },
    }),
    preValidation: contractFirst,
    handler: async (request) => rows.listRows(request.ctx, request.params.contract_id, request.query),
  });

  app.route({
    ...route('POST', '/contracts/:contract_id/rows', {
      idempotent: true,
      operationId: 'createContractRow',
      summary: "Add a row (If-Match: the contract's ETag)",
      tags,
      tier: 'financials',
      errors: [
        'NOT_FOUND',
        'INVALID_PRODUCT',
        'INVALID_TAX',
        'INVALID_ARTICLE',
        'INVALID_RESOURCE',
        'INVALID_BILLING_PROJECT',
        ...PRECONDITIONS,
      ],
      schema: { params: ContractParams, body: RowCreate, response: { 201: Single(ContractRow) } },
    }),
    preValidation: contractFirst,
    handler: async (request, reply) => {
      const { contract_id } = request.params;
      const precondition = requireIfMatch(request);
      const { data, warnings } = await rows.createRow(request.ctx, contract_id, request.body, precondition);
      return single(reply, data, 201, warnings);
    },
  });

  app.route({
    ...route('GET', '/contracts/:contract_id/rows/:contract_row_id', {
      operationId: 'getContractRow',
      summary: 'Get a contract row with its own prices',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: RowParams, response: { 200: Single(ContractRow) } },
    }),
    handler: async (request, reply) =>
      single(reply, await rows.getRow(request.ctx, request.params.contract_id, request.params.contract_row_id)),
  });

  app.route({
    ...route('PATCH', '/contracts/:contract_id/rows/:contract_row_id', {
      operationId: 'updateContractRow',
      summary: "Change a row (If-Match: the row's ETag)",
      tags,
      tier: 'financials',
      errors: [
        'NOT_FOUND',
        'INVALID_PRODUCT',
        'INVALID_TAX',
        'INVALID_ARTICLE',
        'INVALID_RESOURCE',
        'INVALID_BILLING_PROJECT',
        ...PRECONDITIONS,
      ],
      schema: { params: RowParams, body: RowUpdate, response: { 200: Single(ContractRow) } },
    }),
    preValidation: rowFirst,
    handler: async (request, reply) => {
      const { contract_id, contract_row_id } = request.params;
      const precondition = requireIfMatch(request);
      const { data, warnings } = await rows.updateRow(
        request.ctx,
        contract_id,
        contract_row_id,
        request.body,
        precondition,
      );
      return single(reply, data, 200, warnings);
    },
  });

  app.route({
    ...route('DELETE', '/contracts/:contract_id/rows/:contract_row_id', {
      operationId: 'deleteContractRow',
      summary: "Remove a row and its prices (If-Match: the row's ETag)",
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', ...PRECONDITIONS],
      schema: { params: RowParams, response: { 204: Type.Null() } },
    }),
    preValidation: rowFirst,
    handler: async (request, reply) => {
      const { contract_id, contract_row_id } = request.params;
      await rows.deleteRow(request.ctx, contract_id, contract_row_id, requireIfMatch(request));
      return noContent(reply);
    },
  });

  app.route({
    ...route('POST', '/contracts/:contract_id/rows/:contract_row_id/prices', {
      idempotent: true,
      operationId: 'createContractRowPrice',
      summary: "Add a price to the row's own price list (If-Match: the row's ETag)",
      description: 'active_from defaults to 2000-01-01 and is returned so.',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', ...PRECONDITIONS],
      schema: { params: RowParams, body: RowPriceCreate, response: { 201: Single(ContractRowPrice) } },
    }),
    preValidation: rowFirst,
    handler: async (request, reply) => {
      const { contract_id, contract_row_id } = request.params;
      const precondition = requireIfMatch(request);
      const price = await rows.addRowPrice(request.ctx, contract_id, contract_row_id, request.body, precondition);
      return single(reply, price, 201);
    },
  });
}
