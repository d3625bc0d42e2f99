import { inTransaction, type Ctx } from '../../platform/context.ts';
import type { ClaimedJob, JobServices } from '../../platform/modules.ts';
import { allStoredRows, isSendable, recordSendFailure, recordSent, type InvoiceStatus } from '../invoices/index.ts';
import * as jobs from '../jobs/index.ts';
import { recordMail, renderCompanyTemplate } from '../content-templates/index.ts';
import {
  composeMail,
  deliver,
  mailValues,
  noRecipient,
  recipientsOf,
  type Delivery,
  type InvoiceMail,
} from './invoice-documents.mail.ts';
import { buildDocument } from './invoice-documents.model.ts';
import { renderPdf } from './invoice-documents.pdf.ts';
import * as repo from './invoice-documents.repository.ts';

export const SEND_JOB = 'invoice_send';

/**
 * Waits before the 2nd, 3rd and 4th attempt when the SMTP server refuses (the webhook ladder: 1, 5, 30
 * minutes); the 4th failure fails the job. The job is queued meanwhile, so any runner may take the retry.
 */
export const RETRY_DELAYS_MS: readonly number[] = [60_000, 300_000, 1_800_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export interface SendParams {
  invoice_id: number;
}

/**
 * Reads the invoice as it is now, checks it may still go out, and composes the mail with its PDF: from the
 * company's invoice_email template in the invoice's language, else the built-in text.
 */
async function prepare(ctx: Ctx, invoiceId: number): Promise<InvoiceMail> {
  const invoice = await repo.findHeader(ctx, invoiceId);
  if (!invoice) throw new jobs.JobFailed(`invoice ${invoiceId} no longer exists`);
  if (!isSendable(invoice.status as InvoiceStatus))
    throw new jobs.JobFailed(
      `invoice ${invoiceId} is ${invoice.status} now; only created, sent or paid invoices are sent`,
    );
  // Checked when the send was asked for too; a contact removed since leaves none.
  const to = await recipientsOf(ctx, invoice);
  if (to.length === 0) throw new jobs.JobFailed(noRecipient(invoiceId));
  const model = buildDocument(invoice, await allStoredRows(ctx, invoiceId));
  const template = await renderCompanyTemplate(ctx, 'invoice_email', invoice.locale_code, mailValues(model));
  return composeMail(model, to, await renderPdf(model), template);
}

/** SMTP refused or could not be reached: try again later, or give up after the last attempt. */
function refused(job: ClaimedJob, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  if (job.attempts >= MAX_ATTEMPTS)
    return new jobs.JobFailed(
      `the SMTP server did not take the invoice mail after ${job.attempts} attempts: ${reason}`,
    );
  const delay = RETRY_DELAYS_MS[Math.max(0, job.attempts - 1)]!;
  return new jobs.RetryLater(
    `attempt ${job.attempts} of ${MAX_ATTEMPTS} failed, retrying in ${delay / 1000} s: ${reason}`,
    delay,
  );
}

/** In one transaction: the invoice is sent (the invoices module's rule), the mail is recorded, the job counts it. */
async function markSent(ctx: Ctx, job: ClaimedJob, invoiceId: number, mail: InvoiceMail, delivery: Delivery) {
  await inTransaction(ctx, async (tx) => {
    if (!(await recordSent(tx, invoiceId))) throw new jobs.JobFailed(`invoice ${invoiceId} no longer exists`);
    const refused = delivery.rejected.length > 0 ? `refused by the SMTP server: ${delivery.rejected.join(', ')}` : null;
    await recordMail(tx, { to: mail.to.join(', '), subject: mail.subject, text: mail.text }, delivery.how, refused);
    await jobs.advance(tx, job.id, 0, 1, 0);
  });
}

/**
 * The invoice_send job: renders the PDF and mails it. The invoice is sent once the mail went out (or, without
 * SMTP, was logged); a refusal at the SMTP server is retried with back-off. A send that gives up says why on the
 * invoice (send_error, send_failed_at) as well as on the job. Delivery is at least once: a process that dies
 * between the SMTP answer and the commit sends again when resumed.
 */
export async function runSendJob(ctx: Ctx, job: ClaimedJob, _signal?: AbortSignal, services?: JobServices) {
  const { invoice_id: invoiceId } = job.params as SendParams;
  try {
    await sendOnce(ctx, job, invoiceId, services);
  } catch (error) {
    // RetryLater, Released and internal errors are not the send's end: only a reason the job fails with is shown.
    if (error instanceof jobs.JobFailed || error instanceof jobs.Refused)
      await inTransaction(ctx, (tx) => recordSendFailure(tx, invoiceId, error.message));
    throw error;
  }
}

async function sendOnce(ctx: Ctx, job: ClaimedJob, invoiceId: number, services: JobServices | undefined) {
  if (!services) throw new jobs.JobFailed('this job runner was started without mail settings; it cannot send invoices');
  await jobs.assertMayRun(ctx, job);
  if (job.target_ids === null) await jobs.setTargets(ctx, job.id, [invoiceId]);
  const mail = await prepare(ctx, invoiceId);
  let delivery: Delivery;
  try {
    delivery = await deliver(services.config, mail);
  } catch (error) {
    throw refused(job, error);
  }
  await markSent(ctx, job, invoiceId, mail, delivery);
}
