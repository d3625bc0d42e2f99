import type { AttachmentListParams } from './attachments.schemas.ts';
import type { Config } from '../../config.ts';
import { afterCommit, inTransaction, type Ctx } from '../../platform/context.ts';
import { fail } from '../../platform/errors.ts';
import { mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { lockLive } from '../../platform/references.ts';
import * as jobs from '../jobs/index.ts';
import * as repo from './attachments.repository.ts';
import type { AttachmentRecord, RelatedType } from './attachments.schemas.ts';
import type { ReceivedFile } from './attachments.upload.ts';
import { VERIFY_JOB, verifyAttachment } from './attachments.verify.ts';

const PARENT_TABLES = { task: 'tasks', note: 'notes' } as const;

const target = { what: 'Attachment', lock: repo.attachments.lock, read: repo.findAttachment };

export const listAttachments = (ctx: Ctx, params: AttachmentListParams) => repo.listAttachments(ctx, params);

export async function getAttachment(ctx: Ctx, id: number): Promise<AttachmentRecord> {
  return orNotFound(await repo.findAttachment(ctx, id), 'Attachment');
}

/**
 * 400 INVALID_PARENT unless the task or note is a live record of this company that the caller may see (another
 * company's id is simply absent). Inside a transaction the parent stays locked until it commits.
 */
export async function assertParent(ctx: Ctx, type: RelatedType, id: number): Promise<void> {
  if (await lockLive(ctx, PARENT_TABLES[type], id)) return;
  fail('INVALID_PARENT', `The ${type} ${id} is not a record of this company`, { related_type: type, related_id: id });
}

/**
 * Records an upload whose bytes are already stored, as `processing`, and queues its verification job, which this
 * process starts once the request has committed (a job runner picks it up should that start be lost).
 */
export async function createAttachment(
  ctx: Ctx,
  parent: { type: RelatedType; id: number },
  file: ReceivedFile,
  config: Config,
): Promise<AttachmentRecord> {
  return inTransaction(ctx, async (tx) => {
    await assertParent(tx, parent.type, parent.id);
    const id = await repo.attachments.insert(tx, {
      related_type: parent.type,
      related_id: parent.id,
      file_name: file.name,
      content_type: file.format.mime,
      size: file.size,
      sha256: file.sha256,
      status: 'processing',
      created_by_person_id: tx.actor.personId ?? null,
    });
    const jobId = await jobs.insertJob(tx, VERIFY_JOB, { attachment_id: id });
    afterCommit(tx, (db) => jobs.kickJob(db, tx.companyId, jobId, verifyAttachment, { config }));
    return getAttachment(tx, id);
  });
}

/** Soft delete: the record goes; the blob stays, as other records may hold the same bytes (content addressing). */
export const deleteAttachment = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.attachments.softDelete(tx, id));
