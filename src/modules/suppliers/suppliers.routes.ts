import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Supplier, SupplierCreate, SupplierListQuery, SupplierUpdate, SUPPLIER_FILTERS } from './suppliers.schemas.ts';
import * as service from './suppliers.service.ts';

const tags = ['Suppliers'];
const Params = IdParam('supplier_id');

/** Preview resource, write tier; notes hang on suppliers through /notes (related_type = supplier). */
export default async function supplierRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const common = { tags, preview: true } as const;

  app.route({
    ...route('GET', '/suppliers', {
      ...common,
      operationId: 'listSuppliers',
      summary: 'List suppliers',
      tier: 'write',
      filters: SUPPLIER_FILTERS,
      schema: { querystring: SupplierListQuery, response: { 200: OffsetOrCursorList(Supplier) } },
    }),
    handler: async (request) => service.listSuppliers(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/suppliers', {
      idempotent: true,
      ...common,
      operationId: 'createSupplier',
      summary: 'Create a supplier',
      tier: 'write',
      errors: ['INVALID_SUPPLIER_TYPE'],
      schema: { body: SupplierCreate, response: { 201: Single(Supplier) } },
    }),
    handler: async (request, reply) => single(reply, await service.createSupplier(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/suppliers/:supplier_id', {
      ...common,
      operationId: 'getSupplier',
      summary: 'Get a supplier',
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Supplier) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getSupplier(request.ctx, request.params.supplier_id)),
  });

  app.route({
    ...route('PATCH', '/suppliers/:supplier_id', {
      ...common,
      operationId: 'updateSupplier',
      summary: 'Update a supplier (send only the fields to change)',
      tier: 'write',
      errors: ['NOT_FOUND', 'INVALID_SUPPLIER_TYPE'],
      schema: { params: Params, body: SupplierUpdate, response: { 200: Single(Supplier) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateSupplier(request.ctx, request.params.supplier_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/suppliers/:supplier_id', {
      ...common,
      operationId: 'deleteSupplier',
      summary: 'Delete a supplier (soft delete)',
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteSupplier(request.ctx, request.params.supplier_id);
      return noContent(reply);
    },
  });
}
