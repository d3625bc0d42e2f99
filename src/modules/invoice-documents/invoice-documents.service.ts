import { afterCommit, inTransaction, type Ctx } from '../../platform/context.ts';
import { fail, notFound } from '../../platform/errors.ts';
import { V3_PREFIX } from '../../platform/http.ts';
import type { JobServices } from '../../platform/modules.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import {
  allStoredRows,
  assertExportable,
  assertSendable,
  lockInvoice,
  recordExported,
  recordInvoiceUpdated,
  storedInvoice,
  type InvoiceStatus,
} from '../invoices/index.ts';
import * as jobs from '../jobs/index.ts';
import { fileNameOf, noRecipient, recipientsOf } from './invoice-documents.mail.ts';
import { buildDocument, type InvoiceDocument } from './invoice-documents.model.ts';
import { renderPdf } from './invoice-documents.pdf.ts';
import * as repo from './invoice-documents.repository.ts';
import type { DocumentFormat, ExportResult, SendResult } from './invoice-documents.schemas.ts';
import { runSendJob, SEND_JOB, type SendParams } from './invoice-documents.send.ts';
import { renderCii } from './invoice-documents.cii.ts';
import { renderFacturX } from './invoice-documents.facturx.ts';
import { renderUbl } from './invoice-documents.ubl.ts';

export interface RenderedDocument {
  body: Buffer;
  contentType: string;
  filename: string;
  updatedAt: string;
}

/** Where a caller fetches an invoice's documents. */
/** Where each format of the invoice is fetched (decision 0063): every format GET /invoices/{id}/document serves. */
export const documentLinks = (id: number) => {
  const at = (format: string) => `${V3_PREFIX}/invoices/${id}/document?format=${format}`;
  return { pdf: at('pdf'), ubl: at('ubl'), cii: at('cii'), xrechnung: at('xrechnung'), facturx: at('facturx') };
};

const xml = (model: InvoiceDocument, text: string, suffix = ''): Omit<RenderedDocument, 'updatedAt'> => ({
  body: Buffer.from(text, 'utf8'),
  contentType: 'application/xml; charset=utf-8',
  filename: fileNameOf(model.label + suffix, 'xml'),
});

/** The invoice as a PDF or as e-invoice XML, rendered from what is stored now (drafts too, stamped DRAFT). */
export async function invoiceDocument(ctx: Ctx, id: number, format: DocumentFormat): Promise<RenderedDocument> {
  const invoice = await repo.findHeader(ctx, id);
  if (!invoice) throw notFound('Invoice');
  const model = buildDocument(invoice, await allStoredRows(ctx, id));
  const updatedAt = invoice.updated_at;
  if (format === 'ubl') return { ...xml(model, renderUbl(model)), updatedAt };
  if (format === 'cii') return { ...xml(model, renderCii(model), '-cii'), updatedAt };
  if (format === 'facturx')
    return {
      body: await renderFacturX(model),
      contentType: 'application/pdf',
      filename: fileNameOf(`${model.label}-facturx`, 'pdf'),
      updatedAt,
    };
  if (format === 'xrechnung') return { ...xml(model, renderUbl(model, 'xrechnung'), '-xrechnung'), updatedAt };
  return {
    body: await renderPdf(model),
    contentType: 'application/pdf',
    filename: fileNameOf(model.label, 'pdf'),
    updatedAt: invoice.updated_at,
  };
}

/** Marks the invoice exported (exported_at: now, each time) and answers where its documents are. Drafts are not exported. */
export async function exportInvoice(ctx: Ctx, id: number): Promise<ExportResult> {
  return inTransaction(ctx, async (tx) => {
    const current = await lockInvoice(tx, id);
    if (!current) throw notFound('Invoice');
    assertExportable(current.status);
    await recordExported(tx, id);
    await recordInvoiceUpdated(tx, id);
    const header = (await storedInvoice(tx, id))!;
    return {
      invoice_id: id,
      exported_at: header.exported_at!,
      updated_at: header.updated_at,
      documents: documentLinks(id),
    };
  });
}

/**
 * 409 INVOICE_NOT_SENDABLE, whatever the If-Match, for a send that cannot go out: the invoice's status (the
 * invoices module's rule) or no recipient, which is said now rather than by a job failing later.
 */
async function assertDeliverable(ctx: Ctx, id: number, status: InvoiceStatus): Promise<void> {
  assertSendable(status);
  const invoice = await storedInvoice(ctx, id);
  if (invoice && (await recipientsOf(ctx, invoice)).length > 0) return;
  fail('INVOICE_NOT_SENDABLE', noRecipient(id), { status, reason: 'NO_RECIPIENT' });
}

/**
 * Queues the invoice_send job (202): whether it can go out first (status and recipients, 409 whatever the
 * If-Match), then If-Match against the invoice's updated_at. The job starts in this process after commit.
 */
export async function sendInvoice(
  ctx: Ctx,
  id: number,
  precondition: () => Precondition,
  services: JobServices,
): Promise<SendResult> {
  return inTransaction(ctx, async (tx) => {
    const current = await lockInvoice(tx, id);
    if (!current) throw notFound('Invoice');
    await assertDeliverable(tx, id, current.status);
    assertFresh(precondition(), current.updated_at);
    const params: SendParams = { invoice_id: id };
    const jobId = await jobs.insertJob(tx, SEND_JOB, params);
    // Lost (crash before it starts)? A job runner's poll picks the queued job up.
    afterCommit(tx, (db) => jobs.kickJob(db, ctx.companyId, jobId, runSendJob, services));
    return { job_id: jobId, invoice_id: id, status: 'queued', job_url: `${V3_PREFIX}/jobs/${jobId}` };
  });
}
