import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { readIfMatch } from '../../platform/preconditions.ts';
import { InvoiceRow, InvoiceRowCreate, InvoiceRowListQuery, InvoiceRowUpdate } from './invoices.schemas.ts';
import * as service from './invoice-rows.service.ts';

const tags = ['Invoices'];
const Id = Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Record id' });
const InvoiceParams = Type.Object({ invoice_id: Id });
const RowParams = Type.Object({ invoice_id: Id, invoice_row_id: Id });
const ROW_REFERENCES = [
  'INVALID_TAX',
  'INVALID_PRODUCT',
  'INVALID_PERSON',
  'INVALID_CLIENT',
  'INVALID_ARTICLE',
  'INVALID_RESOURCE',
  'INVALID_BILLING_PROJECT',
] as const;
const RULES =
  'Needs admin. tax_id alone decides the tax; tax_rate, tax_name, tax_sum and net_sum sent are ignored; ' +
  'net_sum = quantity × net_price − discount. On a finalized invoice the write succeeds with warning ' +
  'INVOICE_EDITED_WHILE_LOCKED {status, change, total_sum, paid_sum, overpaid}.';

export default async function invoiceRowRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/invoices/:invoice_id/rows', {
      operationId: 'listInvoiceRows',
      summary: "List an invoice's rows (offset pages)",
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: {
        params: InvoiceParams,
        querystring: InvoiceRowListQuery,
        response: { 200: OffsetOrCursorList(InvoiceRow) },
      },
    }),
    handler: async (request) => service.listRows(request.ctx, request.params.invoice_id, request.query),
  });

  app.route({
    ...route('POST', '/invoices/:invoice_id/rows', {
      idempotent: true,
      operationId: 'createInvoiceRow',
      summary: 'Add a row; the invoice totals are recomputed',
      description: RULES,
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', ...ROW_REFERENCES],
      schema: { params: InvoiceParams, body: InvoiceRowCreate, response: { 201: Single(InvoiceRow) } },
    }),
    handler: async (request, reply) => {
      const { data, warnings } = await service.createRow(request.ctx, request.params.invoice_id, request.body);
      return single(reply, data, 201, warnings);
    },
  });

  app.route({
    ...route('GET', '/invoices/:invoice_id/rows/:invoice_row_id', {
      operationId: 'getInvoiceRow',
      summary: 'Get an invoice row',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: RowParams, response: { 200: Single(InvoiceRow) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getRow(request.ctx, request.params.invoice_id, request.params.invoice_row_id)),
  });

  app.route({
    ...route('PATCH', '/invoices/:invoice_id/rows/:invoice_row_id', {
      operationId: 'updateInvoiceRow',
      summary: 'Update a row (send only the fields to change); the invoice totals are recomputed',
      description: `${RULES} If-Match is optional; when sent it must carry the row's ETag.`,
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', 'STALE_WRITE', ...ROW_REFERENCES],
      schema: { params: RowParams, body: InvoiceRowUpdate, response: { 200: Single(InvoiceRow) } },
    }),
    handler: async (request, reply) => {
      const { invoice_id, invoice_row_id } = request.params;
      const { data, warnings } = await service.updateRow(
        request.ctx,
        invoice_id,
        invoice_row_id,
        request.body,
        readIfMatch(request),
      );
      return single(reply, data, 200, warnings);
    },
  });

  app.route({
    ...route('DELETE', '/invoices/:invoice_id/rows/:invoice_row_id', {
      operationId: 'deleteInvoiceRow',
      summary: 'Delete a row; the invoice totals are recomputed (204, no warning even on a finalized invoice)',
      description: "Needs admin. If-Match is optional; when sent it must carry the row's ETag.",
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', 'STALE_WRITE'],
      schema: { params: RowParams, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      const { invoice_id, invoice_row_id } = request.params;
      await service.deleteRow(request.ctx, invoice_id, invoice_row_id, readIfMatch(request));
      return noContent(reply);
    },
  });
}
