import type { Config } from '../../config.ts';
import { afterCommit, inTransaction, type Ctx } from '../../platform/context.ts';
import type { ClaimedJob, JobServices } from '../../platform/modules.ts';
import * as jobs from '../jobs/index.ts';
import * as repo from './client-emails.repository.ts';
import { deliverMail } from './content-templates.mail.ts';

export const CLIENT_EMAIL_JOB_TYPE = 'client_email_send';
/** Tries per mail, as the outbox's other mail gets; the job retries with these back-offs in between. */
export const MAX_TRIES = 5;
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000];

export interface ClientEmailJobParams {
  mail_ids: number[];
}

type Outcome = 'sent' | 'queued' | 'failed' | 'gone';

/**
 * One queued mail: claimed (row lock, skip if another sender holds it), handed to the SMTP server, marked.
 * A refusal keeps it queued with the error until its last try, then it is failed, never dropped.
 */
async function sendOne(ctx: Ctx, config: Config, id: number): Promise<Outcome> {
  return inTransaction(ctx, async (tx) => {
    const mail = await repo.claimQueuedMail(tx, id);
    if (!mail) return 'gone';
    try {
      const to = [mail.recipient];
      const delivery = await deliverMail(config, {
        to,
        subject: mail.subject,
        text: mail.body,
        ...(mail.html !== null ? { html: mail.html } : {}),
      });
      await repo.markMail(tx, mail, delivery.how, null);
      return 'sent';
    } catch (error) {
      const last = mail.tries + 1 >= MAX_TRIES;
      await repo.markMail(tx, mail, last ? 'failed' : 'queued', error instanceof Error ? error.message : String(error));
      return last ? 'failed' : 'queued';
    }
  });
}

/**
 * The client_email_send job: sends the mails a POST /clients/{id}/emails committed to the outbox, after that
 * commit, so no SMTP conversation holds the request's transaction. Mails still refused go back to the queue
 * with back-off; after the last try they are `failed` in the outbox and the job fails naming them.
 */
export async function runClientEmailJob(ctx: Ctx, job: ClaimedJob, _signal?: AbortSignal, services?: JobServices) {
  if (!services) throw new jobs.JobFailed('this job runner was started without mail settings; it cannot send mail');
  const { mail_ids: ids } = job.params as ClientEmailJobParams;
  if (job.target_ids === null) await jobs.setTargets(ctx, job.id, ids);
  const outcomes = new Map<number, Outcome>();
  for (const id of ids) outcomes.set(id, await sendOne(ctx, services.config, id));
  const left = ids.filter((id) => outcomes.get(id) === 'queued');
  const failed = ids.filter((id) => outcomes.get(id) === 'failed');
  await jobs.advance(
    ctx,
    job.id,
    job.target_ids === null ? 0 : job.processed_count,
    ids.length - left.length,
    failed.length,
  );
  if (left.length > 0) {
    const delay = RETRY_DELAYS_MS[Math.min(job.attempts - 1, RETRY_DELAYS_MS.length - 1)]!;
    throw new jobs.RetryLater(
      `${left.length} mail(s) refused by the SMTP server, retrying in ${delay / 1000} s`,
      delay,
    );
  }
  if (failed.length > 0)
    throw new jobs.JobFailed(`the SMTP server did not take ${failed.length} mail(s) after ${MAX_TRIES} tries`);
}

/** Queues the job in the request's transaction; it starts in this process once the request has committed. */
export async function queueSending(ctx: Ctx, config: Config, mailIds: number[]): Promise<number> {
  const jobId = await jobs.insertJob(ctx, CLIENT_EMAIL_JOB_TYPE, { mail_ids: mailIds });
  // If this start is lost (crash), a job runner's poll picks the job up.
  afterCommit(ctx, (db) => jobs.kickJob(db, ctx.companyId, jobId, runClientEmailJob, { config }));
  return jobId;
}
