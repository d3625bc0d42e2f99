import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, route, Single, single } from '../../platform/http.ts';
import { etagOf, requireIfMatch } from '../../platform/preconditions.ts';
import { DocumentQuery, DocumentResponse, ExportResult, SendResult } from './invoice-documents.schemas.ts';
import * as service from './invoice-documents.service.ts';

const tags = ['Invoices'];
const Params = IdParam('invoice_id');

export default async function invoiceDocumentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // The send job mails through the configured SMTP server (SMTP_URL); the job runner gets the same settings.
  const services = { config: fastify.config };

  app.route({
    ...route('GET', '/invoices/:invoice_id/document', {
      operationId: 'getInvoiceDocument',
      summary: 'Download the invoice as PDF or as an EN 16931 e-invoice (UBL, Peppol BIS 3, CII, XRechnung, Factur-X)',
      description:
        'format=pdf (default), ubl, cii, xrechnung or facturx. Rendered from the invoice as stored now; a draft is stamped DRAFT ' +
        '(and numbered draft-<id>), an annulled invoice ANNULLED. ubl is EN 16931 UBL 2.1, claiming Peppol BIS Billing ' +
        "3.0 when the invoice carries both parties' electronic addresses (endpoint_id of the seller and the client, " +
        'copied at finalization); cii is the same invoice as a UN/CEFACT Cross Industry Invoice; xrechnung is UBL under ' +
        'the XRechnung 3.0 CIUS; facturx is the PDF as PDF/A-3 with the CII embedded as factur-x.xml ' +
        "(Factur-X/ZUGFeRD, EN 16931). Each carries what its rules require; when the records lack it (the seller's country " +
        "from its VAT number or IBAN, the client's country, a VAT number on a seller charging VAT; for xrechnung also " +
        'electronic addresses, seller phone, city and postcode, the buyer reference...) it is 422 ' +
        'EINVOICE_DATA_MISSING with details.missing naming the fields.',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', 'EINVOICE_DATA_MISSING'],
      schema: { params: Params, querystring: DocumentQuery, response: { 200: DocumentResponse } },
    }),
    handler: async (request, reply) => {
      const doc = await service.invoiceDocument(request.ctx, request.params.invoice_id, request.query.format ?? 'pdf');
      return reply
        .header('Content-Type', doc.contentType)
        .header('Content-Length', doc.body.length)
        .header('Content-Disposition', `attachment; filename="${doc.filename}"`)
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header('ETag', etagOf(doc.updatedAt))
        .send(doc.body);
    },
  });

  app.route({
    ...route('POST', '/invoices/:invoice_id/export', {
      idempotent: true,
      operationId: 'exportInvoice',
      summary: 'Mark the invoice exported and get the paths of its documents',
      description:
        'Sets exported_at (again on every export) and answers where the PDF and the UBL XML are fetched. ' +
        'A draft is refused with 409 INVALID_STATUS_TRANSITION: finalize it first.',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', 'INVALID_STATUS_TRANSITION'],
      schema: { params: Params, response: { 200: Single(ExportResult) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.exportInvoice(request.ctx, request.params.invoice_id)),
  });

  app.route({
    ...route('POST', '/invoices/:invoice_id/send', {
      idempotent: true,
      operationId: 'sendInvoice',
      summary: 'Mail the invoice PDF to its recipients (queued; 202)',
      description:
        "Queues an invoice_send job (GET /jobs/{job_id}). Recipients: the invoice's own recipients, else the contract's " +
        "settings.invoice_recipients, else the client's primary contact; none is 409 INVOICE_NOT_SENDABLE (reason " +
        'NO_RECIPIENT). Once the mail is out a created, sent or paid invoice is sent (a paid one keeps paid_at and ' +
        'paid_sum) with sent_at set; an SMTP refusal is retried after 1, 5 and 30 minutes. A send that gives up ' +
        'leaves the status as it was and says why in send_error and send_failed_at. Only created, sent and paid ' +
        'invoices are sent (else 409 INVOICE_NOT_SENDABLE, whatever the If-Match); If-Match is required.',
      tags,
      tier: 'financials',
      errors: ['NOT_FOUND', 'INVOICE_NOT_SENDABLE', 'PRECONDITION_REQUIRED', 'STALE_WRITE'],
      schema: { params: Params, response: { 202: Single(SendResult) } },
    }),
    handler: async (request, reply) => {
      const result = await service.sendInvoice(
        request.ctx,
        request.params.invoice_id,
        () => requireIfMatch(request),
        services,
      );
      return reply.code(202).send({ data: result });
    },
  });
}
