import { pipeline } from 'node:stream/promises';
import type { Ctx } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { ClaimedJob, JobServices } from '../../platform/modules.ts';
import { storageFor } from '../../platform/storage/index.ts';
import { JobFailed } from '../jobs/index.ts';
import { checkContent, Inspector } from './attachments.inspect.ts';
import * as repo from './attachments.repository.ts';
import { extensionOf, FORMATS } from './attachments.rules.ts';

export const VERIFY_JOB = 'attachment_verify';

const drain = async (source: AsyncIterable<unknown>) => {
  for await (const _ of source);
};

const missingBlob = (error: unknown) => {
  const e = error as { code?: string; name?: string };
  return e.code === 'ENOENT' || e.name === 'NoSuchKey' || e.name === 'NotFound';
};

/** Re-reads the stored bytes: why they fail the upload's promises (size, SHA-256, type), or null when they keep them. */
async function problemWith(ctx: Ctx, row: { file_name: string; size: number; sha256: string }, services: JobServices) {
  const format = FORMATS[extensionOf(row.file_name)];
  if (!format) return 'the file type is no longer accepted';
  const inspector = new Inspector(format);
  try {
    await pipeline(await storageFor(services.config).get(row.sha256), inspector, drain);
    const found = inspector.result();
    if (found.size !== row.size || found.sha256 !== row.sha256) return 'the stored bytes differ from the upload';
    await checkContent(format, found);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.message;
    if (missingBlob(error)) return 'the stored file is missing';
    throw error;
  }
}

/**
 * The processing of a fresh upload: the bytes are read back from storage (not from the request) and their size,
 * SHA-256 and type checked against the record; then it is `ready` for download, or `failed` with the reason.
 * A storage error (unreachable S3) fails the attempt, and the job runner's retry rules apply.
 */
export async function verifyAttachment(ctx: Ctx, job: ClaimedJob, _signal?: AbortSignal, services?: JobServices) {
  if (!services) throw new JobFailed('the job runner gave no storage settings');
  const id = (job.params as { attachment_id: number }).attachment_id;
  const row = await repo.findForVerification(ctx, id);
  if (!row || row.status !== 'processing') return;
  const problem = await problemWith(ctx, row, services);
  await repo.settle(ctx, id, problem ? 'failed' : 'ready', problem);
}
