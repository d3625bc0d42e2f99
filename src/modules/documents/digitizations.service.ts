import type { DigitizationListParams } from './digitizations.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { afterCommit, inTransaction } from '../../platform/context.ts';
import { domainValidation } from '../../platform/errors.ts';
import { IsolatedFailure, IsolatedTimeout, runIsolated } from '../../platform/isolated.ts';
import type { ClaimedJob, JobServices } from '../../platform/modules.ts';
import { orNotFound } from '../../platform/mutate.ts';
import * as jobs from '../jobs/index.ts';
import { EXTRACT_MODULE, type Extraction } from './digitize.ts';
import type { DigitizationCreateBody, DigitizationRecord } from './digitizations.schemas.ts';
import * as repo from './digitizations.repository.ts';
import { documents } from './documents.repository.ts';

export const DIGITIZATION_JOB = 'document_digitization';

export const listDigitizations = (ctx: Ctx, params: DigitizationListParams) => repo.listDigitizations(ctx, params);

export async function getDigitization(ctx: Ctx, id: number): Promise<DigitizationRecord> {
  return orNotFound(await repo.findDigitization(ctx, id), 'Digitization');
}

/** Used when the running process offers no settings (SVC_DIGITIZE_TIME_LIMIT's default). */
const DEFAULT_TIME_LIMIT_MS = 10_000;

/** The text to read, or the reason there is none (a document without text, a file only, or deleted). */
async function sourceText(ctx: Ctx, job: ClaimedJob): Promise<{ id: number; text: string }> {
  const source = await repo.digitizationSource(ctx, job.id);
  if (!source || source.deleted_at !== null) throw new jobs.JobFailed('the document was deleted');
  if (source.text_content === null || source.text_content.trim() === '')
    throw new jobs.JobFailed(
      source.attachment_id === null
        ? 'the document has no text to digitize'
        : 'only text_content is digitized; reading attached files is not supported yet',
    );
  return { id: source.id, text: source.text_content };
}

/** The rules, in a worker thread with a hard time limit: never on the event loop, never inside a transaction. */
async function extractIsolated(text: string, timeLimitMs: number): Promise<Extraction> {
  try {
    return await runIsolated<Extraction>(EXTRACT_MODULE, 'extract', text, { timeLimitMs });
  } catch (error) {
    if (error instanceof IsolatedTimeout)
      throw new jobs.JobFailed(`the text could not be digitized within ${timeLimitMs / 1000} s`);
    if (error instanceof IsolatedFailure) throw new jobs.JobFailed('the text could not be digitized');
    throw error;
  }
}

/**
 * The job: reads the document's text, extracts what the rules find off the event loop, then stores it in a short
 * transaction. A document without text (a file only) fails with a reason the caller can read: file contents are
 * not read by this release. A failure is final (the job is failed, not retaken), so no text is tried twice.
 */
export async function runDigitization(
  ctx: Ctx,
  job: ClaimedJob,
  _signal?: AbortSignal,
  services?: JobServices,
): Promise<void> {
  // The runner checked the key when it claimed the job; it is checked again before the result is stored.
  const source = await sourceText(ctx, job);
  const result = await extractIsolated(source.text, services?.config.digitizeTimeLimitMs ?? DEFAULT_TIME_LIMIT_MS);
  await inTransaction(ctx, async (tx) => {
    await jobs.assertMayRun(tx, job);
    await repo.digitizations.update(tx, source.id, { result: JSON.stringify(result) });
  });
}

/** Records the request and its job in one transaction; the job starts in this process once the request is done. */
export async function createDigitization(
  ctx: Ctx,
  body: DigitizationCreateBody,
  services: JobServices,
): Promise<DigitizationRecord> {
  const record = await inTransaction(ctx, async (tx) => {
    if (!(await documents.lock(tx, body.document_id)))
      throw domainValidation(
        'INVALID_DOCUMENT',
        `document_id ${body.document_id} does not name a document of this company`,
        {
          field: 'document_id',
          value: body.document_id,
        },
      );
    const jobId = await jobs.insertJob(tx, DIGITIZATION_JOB, { document_id: body.document_id });
    const id = await repo.digitizations.insert(tx, { document_id: body.document_id, job_id: jobId, result: null });
    return getDigitization(tx, id);
  });
  // If this start is lost (crash), a job runner's poll picks the job up.
  afterCommit(ctx, (db) => jobs.kickJob(db, ctx.companyId, record.job_id, runDigitization, services));
  return record;
}
