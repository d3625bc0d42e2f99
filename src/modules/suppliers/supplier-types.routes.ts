import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  SupplierType,
  SupplierTypeListQuery,
  SupplierTypeUpdate,
  SUPPLIER_TYPE_FILTERS,
} from './supplier-types.schemas.ts';
import * as service from './supplier-types.service.ts';

const tags = ['Supplier types'];
const Params = IdParam('supplier_type_id');

/** Preview resource: a seeded per-company lookup; read and rename/switch off only (no POST, no DELETE). */
export default async function supplierTypeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const common = { tags, preview: true, entity: 'supplier_type' } as const;

  app.route({
    ...route('GET', '/supplier-types', {
      ...common,
      operationId: 'listSupplierTypes',
      summary: 'List supplier types',
      tier: 'write',
      filters: SUPPLIER_TYPE_FILTERS,
      schema: { querystring: SupplierTypeListQuery, response: { 200: OffsetOrCursorList(SupplierType) } },
    }),
    handler: async (request) => service.listSupplierTypes(request.ctx, request.query),
  });

  app.route({
    ...route('GET', '/supplier-types/:supplier_type_id', {
      ...common,
      operationId: 'getSupplierType',
      summary: 'Get a supplier type',
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(SupplierType) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getSupplierType(request.ctx, request.params.supplier_type_id)),
  });

  app.route({
    ...route('PATCH', '/supplier-types/:supplier_type_id', {
      ...common,
      operationId: 'updateSupplierType',
      summary: 'Rename a supplier type or switch it on or off (send only the fields to change)',
      description: 'An inactive type stays on the suppliers that have it but can no longer be assigned.',
      tier: 'write',
      companyConfig: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, body: SupplierTypeUpdate, response: { 200: Single(SupplierType) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateSupplierType(request.ctx, request.params.supplier_type_id, request.body)),
  });
}
