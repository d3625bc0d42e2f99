import type { Ctx } from '../../platform/context.ts';
import { afterCommit, inTransaction } from '../../platform/context.ts';
import { domainValidation } from '../../platform/errors.ts';
import type { ClaimedJob } from '../../platform/modules.ts';
import { orNotFound } from '../../platform/mutate.ts';
import * as jobs from '../jobs/index.ts';
import { extract } from './digitize.ts';
import type { DigitizationCreateBody, DigitizationRecord } from './digitizations.schemas.ts';
import * as repo from './digitizations.repository.ts';
import { documents } from './documents.repository.ts';

export const DIGITIZATION_JOB = 'document_digitization';

export const listDigitizations = (ctx: Ctx, params: object) => repo.listDigitizations(ctx, params);

export async function getDigitization(ctx: Ctx, id: number): Promise<DigitizationRecord> {
  return orNotFound(await repo.findDigitization(ctx, id), 'Digitization');
}

/**
 * The job: reads the document's text and stores what the rules extract. A document without text (a file
 * only) fails with a reason the caller can read: file contents are not read by this release.
 */
export async function runDigitization(ctx: Ctx, job: ClaimedJob): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await jobs.assertMayRun(tx, job);
    const source = await repo.digitizationSource(tx, job.id);
    if (!source || source.deleted_at !== null) throw new jobs.JobFailed('the document was deleted');
    if (source.text_content === null || source.text_content.trim() === '')
      throw new jobs.JobFailed(
        source.attachment_id === null
          ? 'the document has no text to digitize'
          : 'only text_content is digitized; reading attached files is not supported yet',
      );
    await repo.digitizations.update(tx, source.id, { result: JSON.stringify(extract(source.text_content)) });
  });
}

/** Records the request and its job in one transaction; the job starts in this process once the request is done. */
export async function createDigitization(ctx: Ctx, body: DigitizationCreateBody): Promise<DigitizationRecord> {
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
  afterCommit(ctx, (db) => jobs.kickJob(db, ctx.companyId, record.job_id, runDigitization));
  return record;
}
