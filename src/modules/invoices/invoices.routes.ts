import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, pathId, route, Single, single } from '../../platform/http.ts';
import { etagOf, readIfMatch, requireIfMatch } from '../../platform/preconditions.ts';
import { creditInvoice } from './invoice-credit.ts';
import {
  CreditNoteCreate,
  Invoice,
  InvoiceCreate,
  InvoiceListQuery,
  InvoiceUpdate,
  INVOICE_FILTERS,
} from './invoices.schemas.ts';
import * as payments from './invoice-payments.service.ts';
import * as service from './invoices.service.ts';

const tags = ['Invoices'];
const Params = IdParam('invoice_id');
const REFERENCES = [
  'INVALID_TAX',
  'INVALID_PRODUCT',
  'INVALID_PERSON',
  'INVALID_ARTICLE',
  'INVALID_RESOURCE',
  'INVALID_BILLING_PROJECT',
] as const;

/**
 * Sends JSON text as it is: the invoice reads come from PostgreSQL as JSON text already (the schema still
 * documents the shape; Fastify does not serialize a string sent as application/json).
 */
function jsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.header('content-type', 'application/json; charset=utf-8').send(text);
}

/** The invoice is looked up before the body is validated: another company's id is 404 whatever the body holds. */
async function invoiceFirst(request: FastifyRequest): Promise<void> {
  const id = pathId(request, 'invoice_id');
  if (id !== undefined) await service.getInvoice(request.ctx, id);
}

/** Invoices: every route is financial. send, export and the documents live in the invoice-documents module. */
export default async function invoiceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/invoices', {
      operationId: 'listInvoices',
      summary: 'List invoices (rows inlined, up to 200 each)',
      tags,
      tier: 'financials',
      filters: INVOICE_FILTERS,
      schema: { querystring: InvoiceListQuery, response: { 200: OffsetOrCursorList(Invoice) } },
    }),
    handler: async (request, reply) => {
      const page = await service.listInvoices(request.ctx, request.query);
      return jsonText(reply, `{"data":[${page.data.join(',')}],"meta":${JSON.stringify(page.meta)}}`);
    },
  });

  app.route({
    ...route('GET', '/invoices/:invoice_id', {
      operationId: 'getInvoice',
      summary: 'Get an invoice with its rows (up to 200 inlined; rows_truncated beyond)',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Invoice) } },
    }),
    handler: async (request, reply) => {
      const invoice = await service.getInvoice(request.ctx, request.params.invoice_id);
      reply.header('ETag', etagOf(invoice.updated_at));
      return jsonText(reply, `{"data":${invoice.record}}`);
    },
  });

  app.route({
    ...route('POST', '/invoices', {
      idempotent: true,
      operationId: 'createInvoice',
      summary: 'Create a draft invoice (optionally with up to 200 rows)',
      description:
        'Needs admin. Client, seller and contact are snapshotted on the invoice. Defaults: seller from the billing ' +
        'settings, invoice_date today in the company timezone, due_date from the contract or the payment term, ' +
        'currency from the contract or the company. Row rules: tax only from tax_id; tax_rate, tax_name, tax_sum ' +
        'and net_sum sent are ignored; net_sum = quantity × net_price − discount.',
      tags,
      tier: 'financials',
      errors: ['INVALID_CLIENT', 'INVALID_CONTRACT', 'INVALID_SELLER', ...REFERENCES],
      schema: { body: InvoiceCreate, response: { 201: Single(Invoice) } },
    }),
    handler: async (request, reply) => single(reply, await service.createInvoice(request.ctx, request.body), 201),
  });

  app.route({
    ...route('PATCH', '/invoices/:invoice_id', {
      operationId: 'updateInvoice',
      summary: 'Update the invoice header (InvoiceUpdate fields only); status created finalizes a draft',
      description:
        'Needs admin and If-Match. status: draft → created (assigns invoice_number), created/sent/paid → annulled. ' +
        'Edits of a finalized invoice succeed with warning INVOICE_EDITED_WHILE_LOCKED {status, edited_fields}.',
      tags,
      tier: 'financials',
      errors: [
        'NOT_FOUND',
        'PRECONDITION_REQUIRED',
        'STALE_WRITE',
        'INVALID_STATUS_TRANSITION',
        'STATUS_TRANSITION_NOT_SUPPORTED',
      ],
      schema: { params: Params, body: InvoiceUpdate, response: { 200: Single(Invoice) } },
    }),
    handler: async (request, reply) => {
      const { data, warnings } = await service.updateInvoice(request.ctx, request.params.invoice_id, request.body, () =>
        requireIfMatch(request),
      );
      return single(reply, data, 200, warnings);
    },
  });

  app.route({
    ...route('POST', '/invoices/:invoice_id/mark-paid', {
      idempotent: true,
      operationId: 'markInvoicePaid',
      summary: 'Mark a created or sent invoice paid (paid_at now, paid_sum = total_sum)',
      description:
        'Needs admin and If-Match. Any other status is 409 INVOICE_NOT_PAYABLE, checked before If-Match (as send).',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', 'PRECONDITION_REQUIRED', 'STALE_WRITE', 'INVOICE_NOT_PAYABLE'],
      schema: { params: Params, response: { 200: Single(Invoice) } },
    }),
    handler: async (request, reply) =>
      single(reply, await payments.markPaid(request.ctx, request.params.invoice_id, () => requireIfMatch(request))),
  });

  app.route({
    ...route('POST', '/invoices/:invoice_id/credit-notes', {
      operationId: 'createCreditNote',
      summary: 'Issue a partial credit note: chosen rows, quantities or amounts of a created, sent or paid invoice',
      description:
        'Needs admin and If-Match (the invoice). Each item names a row of the invoice and a quantity (at its price ' +
        'and discount), a net_amount (one unit, no discount, its tax), or neither (what is left of the row). The ' +
        'credit notes of a row never exceed its net_sum. The invoice stays as it is; rows credited in full release ' +
        'the time and fees the engine billed on them. Answers the credit note (type credit_note, its own CN- number). ' +
        'A draft, annulled invoice or a credit note is 409 INVOICE_NOT_CREDITABLE (checked before If-Match); refused ' +
        'items are 422 CREDIT_NOTE_ROWS_REJECTED with details.rejections (row_index, row_id, code, message, field).',
      tags,
      tier: 'financials',
      errors: [
        'NOT_FOUND',
        'PRECONDITION_REQUIRED',
        'STALE_WRITE',
        'INVOICE_NOT_CREDITABLE',
        'CREDIT_NOTE_ROWS_REJECTED',
      ],
      schema: { params: Params, body: CreditNoteCreate, response: { 201: Single(Invoice) } },
    }),
    preValidation: invoiceFirst,
    handler: async (request, reply) =>
      single(
        reply,
        await creditInvoice(request.ctx, request.params.invoice_id, request.body.rows, () => requireIfMatch(request)),
        201,
      ),
  });

  app.route({
    ...route('POST', '/invoices/:invoice_id/mark-unpaid', {
      idempotent: true,
      operationId: 'markInvoiceUnpaid',
      summary: 'Undo mark-paid: back to sent (if it was sent) or created; paid_at cleared, paid_sum 0',
      description:
        'Takes a paid invoice, or a paid one sent again since (status sent, paid_at set), which stays sent. ' +
        'If-Match is optional; when sent it must match.',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', 'STALE_WRITE', 'INVOICE_NOT_PAYABLE'],
      schema: { params: Params, response: { 200: Single(Invoice) } },
    }),
    handler: async (request, reply) =>
      single(reply, await payments.markUnpaid(request.ctx, request.params.invoice_id, readIfMatch(request))),
  });

  app.route({
    ...route('POST', '/invoices/:invoice_id/refresh-payment-status', {
      idempotent: true,
      operationId: 'refreshInvoicePaymentStatus',
      summary: 'Reconcile the status with the recorded paid_sum (no payment integration exists) and answer the invoice',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Invoice) } },
    }),
    handler: async (request, reply) =>
      single(reply, await payments.refreshPaymentStatus(request.ctx, request.params.invoice_id)),
  });
}
